"""What the package consumers (python_consumer.py, rust_consumer.py, deb_check.py) share: a
failure that names what did not hold, and a temporary folder to work in."""
import shutil
import sys
import tempfile
from pathlib import Path


class Failure(Exception):
    """A check that did not hold; its message says which."""


def in_temporary_folder(name: str, keep: bool, body) -> int:
    """Runs body(work) in a new temporary folder and returns its exit code, or 1 after printing
    a Failure as "<name>: FAIL: ...". Removes the folder after, unless `keep`."""
    work = Path(tempfile.mkdtemp(prefix=f"memkit-{name}-"))
    try:
        return body(work)
    except Failure as failure:
        print(f"{name}: FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        if keep:
            print(f"{name}: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
