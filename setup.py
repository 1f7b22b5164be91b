"""Build the optional C kernel of the exact engine; without a C compiler sweeplab falls back to pure Python."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sweeplab.analysis._kernel",
            ["sweeplab/analysis/_kernel.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
