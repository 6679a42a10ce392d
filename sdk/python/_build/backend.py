"""The SDK's build backend (PEP 517, PEP 660), standard library only.

The SDK itself needs nothing but the standard library, and so does installing it: ``pip install
./sdk/python`` builds the wheel with this module and downloads nothing, which is what a test
machine without access to a package index needs. It packs the ``flowproof`` package as it is.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "flowproof"
# A fixed timestamp for every archive member, so the same sources always build the same bytes.
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project():
    """The [project] table's plain string keys from pyproject.toml (the only ones this backend reads)."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if table is None:
        raise RuntimeError("pyproject.toml has no [project] table")
    keys = dict(re.findall(r'^([A-Za-z-]+)\s*=\s*"([^"]*)"\s*$', table.group(1), re.M))
    for key in ("name", "version"):
        if key not in keys:
            raise RuntimeError(f"pyproject.toml's [project] table has no {key}")
    return keys


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    readme = os.path.join(ROOT, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _sources():
    """(archive path, file path) of every module of the package, sorted."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                out.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), path))
    return out


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(directory, members):
    """Writes a py3-none-any wheel holding ``members`` (archive path -> bytes) plus its dist-info."""
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}-{project['version']}.dist-info"
    members = dict(members)
    members[f"{info}/METADATA"] = _metadata(project).encode()
    members[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: flowproof-sdk-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in members.items()) + f"{info}/RECORD,,\n"
    members[f"{info}/RECORD"] = record.encode()
    filename = f"{dist}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as whl:
        for name, data in members.items():
            entry = zipfile.ZipInfo(name, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(entry, data)
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    members = {}
    for name, path in _sources():
        with open(path, "rb") as f:
            members[name] = f.read()
    return _write_wheel(wheel_directory, members)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file puts this source tree on sys.path: edits show without reinstalling.
    return _write_wheel(wheel_directory, {f"{PACKAGE}_editable.pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    files = [("pyproject.toml", os.path.join(ROOT, "pyproject.toml")), ("_build/backend.py", os.path.abspath(__file__))]
    if os.path.exists(os.path.join(ROOT, "README.md")):
        files.append(("README.md", os.path.join(ROOT, "README.md")))
    files += _sources()
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata(project).encode()
        entries = [(f"{base}/PKG-INFO", pkg_info)]
        for name, path in files:
            with open(path, "rb") as f:
                entries.append((f"{base}/{name}", f.read()))
        for name, data in entries:
            member = tarfile.TarInfo(name)
            member.size = len(data)
            member.mode = 0o644
            member.mtime = 315532800
            tar.addfile(member, io.BytesIO(data))
    return filename
