"""CRC-32C (Castagnoli), the record-batch checksum: the ``crc32c`` package's C function.

``import crc32c`` runs the package's ``__init__``, which imports its command line and reads the
installed distributions' metadata (``importlib.metadata``, the email parser, a scan of
site-packages) only to set ``__version__``: about 40 ms of CPU at every broker and CLI start, for
one function. This module loads the package's extension module ``crc32c._crc32c`` by itself,
under its own name in ``sys.modules`` (a later ``import crc32c`` then reuses it, as it would its
own import), and falls back to ``import crc32c`` when the package is laid out otherwise.

It does not compute anything itself and does not pick another implementation.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from typing import Callable

__all__ = ["crc32c"]

_EXTENSION = "crc32c._crc32c"


def _load() -> Callable[..., int]:
    module = sys.modules.get(_EXTENSION)
    if module is None:
        spec = importlib.util.find_spec("crc32c")  # finds the package without running its __init__
        for directory in (spec.submodule_search_locations or []) if spec is not None else []:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                path = os.path.join(directory, "_crc32c" + suffix)
                if os.path.isfile(path):
                    loader = importlib.machinery.ExtensionFileLoader(_EXTENSION, path)
                    ext_spec = importlib.util.spec_from_file_location(_EXTENSION, path, loader=loader)
                    module = importlib.util.module_from_spec(ext_spec)
                    loader.exec_module(module)
                    sys.modules[_EXTENSION] = module
                    break
            if module is not None:
                break
    if module is None:  # another layout of the package: its public import
        from crc32c import crc32c as fn

        return fn
    return module.crc32c


crc32c = _load()
