"""The SDK's build backend: a wheel holding the package with a RECORD that pip verifies, built
the same byte for byte each time, and an sdist that carries the backend it needs."""

import base64
import hashlib
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "_build"))

import backend  # noqa: E402


class BuildBackendTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_wheel_holds_the_package_and_a_record_of_every_file(self):
        name = backend.build_wheel(self.tmp.name)
        self.assertEqual(name, "flowproof-0.1.0-py3-none-any.whl")
        with zipfile.ZipFile(os.path.join(self.tmp.name, name)) as whl:
            names = whl.namelist()
            self.assertIn("flowproof/__init__.py", names)
            self.assertIn("flowproof/client.py", names)
            self.assertFalse([n for n in names if "__pycache__" in n or n.startswith("tests/")])
            record = whl.read("flowproof-0.1.0.dist-info/RECORD").decode().splitlines()
            for line in record:
                path, digest, size = line.rsplit(",", 2)
                if path.endswith("RECORD"):
                    self.assertEqual((digest, size), ("", ""))
                    continue
                data = whl.read(path)
                expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual((digest, int(size)), (expected, len(data)), path)
            self.assertEqual(len(record), len(names))
            metadata = whl.read("flowproof-0.1.0.dist-info/METADATA").decode()
            self.assertIn("Name: flowproof\n", metadata)
            self.assertIn("Requires-Python: >=3.9\n", metadata)

    def test_the_same_sources_build_the_same_wheel(self):
        first = os.path.join(self.tmp.name, "a")
        second = os.path.join(self.tmp.name, "b")
        os.mkdir(first)
        os.mkdir(second)
        name = backend.build_wheel(first)
        backend.build_wheel(second)
        with open(os.path.join(first, name), "rb") as a, open(os.path.join(second, name), "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_editable_wheel_puts_the_source_tree_on_the_path(self):
        name = backend.build_editable(self.tmp.name)
        with zipfile.ZipFile(os.path.join(self.tmp.name, name)) as whl:
            self.assertEqual(whl.read("flowproof_editable.pth").decode().strip(), backend.ROOT)

    def test_sdist_carries_the_backend_it_builds_with(self):
        name = backend.build_sdist(self.tmp.name)
        with tarfile.open(os.path.join(self.tmp.name, name)) as tar:
            names = tar.getnames()
        for member in ("PKG-INFO", "pyproject.toml", "_build/backend.py", "flowproof/client.py"):
            self.assertIn(f"flowproof-0.1.0/{member}", names)

    def test_it_needs_nothing_to_build(self):
        self.assertEqual(backend.get_requires_for_build_wheel(), [])
        self.assertEqual(backend.get_requires_for_build_sdist(), [])


if __name__ == "__main__":
    unittest.main()
