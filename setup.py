"""Build the optional C speedup ``kwire.records._scan`` (everything else is in pyproject.toml).

``pip install .`` and ``pip install -e .`` compile it with the machine's C
compiler. It is optional: without a compiler (or Python headers) the build
prints a warning and kwire uses the pure-Python walker in
``kwire/records/scan.py``, which has the same contract. ``KWIRE_NO_EXTENSIONS=1``
at run time forces the pure-Python walker even when the extension is built.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kwire.records._scan",
            sources=["kwire/records/_scan.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
