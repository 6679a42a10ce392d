// Runs items with at most `workers` in flight, starting them in list order. No printing.
export async function runWithWorkers<T>(items: readonly T[], workers: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, workers), items.length) }, lane));
}
