"""Build the optional C kernels (the exact engine's counting, the chain's block move, the game-tree search); without
a C compiler sweeplab falls back to pure Python."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sweeplab.analysis._kernel",
            ["sweeplab/analysis/_kernel.c"],
            depends=["sweeplab/analysis/_kernel_play.c", "sweeplab/analysis/_kernel_best.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "sweeplab.analysis._chain",
            ["sweeplab/analysis/_chain.c"],
            depends=["sweeplab/analysis/_chain_fold.c", "sweeplab/analysis/_chain_order.c"],
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "sweeplab.analysis._gametree",
            ["sweeplab/analysis/_gametree.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
