"""Atomic writes for the bench scripts: a file is replaced whole or not at
all, and gets the permissions any new file gets here (a temporary file is
made readable by its owner only, which would otherwise stay)."""

import contextlib
import os
import tempfile


def _new_file_mode():
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def replacing(path, mode="w", **kwargs):
    """Yields a file beside PATH to write. When the block ends without an
    error, the file is flushed to disk and renamed over PATH; else it is
    removed and PATH is left as it was."""
    directory = os.path.dirname(os.path.abspath(path))
    handle = tempfile.NamedTemporaryFile(mode, dir=directory, delete=False,
                                         prefix=f".{os.path.basename(path)}.", suffix=".tmp", **kwargs)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, _new_file_mode())
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise
