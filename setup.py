"""Build the optional C kernels (the exact engine's count, the players' game loops, the chain's block move, the
game-tree search); without a C compiler sweeplab falls back to pure Python."""

from setuptools import Extension, setup

COUNT = "sweeplab/analysis/exact/_count.c"  # the exact count, included by the engine's module and the players'

setup(
    ext_modules=[
        Extension(
            "sweeplab.analysis.exact._kernel",
            ["sweeplab/analysis/exact/_kernel.c"],
            depends=[COUNT],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "sweeplab.strategies._players",
            ["sweeplab/strategies/_players.c"],
            depends=[
                COUNT,
                "sweeplab/strategies/_exact_play.c",
                "sweeplab/strategies/best/_best.c",
                "sweeplab/strategies/pseq/_figures.c",
            ],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "sweeplab.analysis.estimate._chain",
            ["sweeplab/analysis/estimate/_chain.c"],
            depends=["sweeplab/analysis/estimate/_chain_fold.c", "sweeplab/analysis/estimate/_chain_order.c"],
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "sweeplab.analysis.optimal._gametree",
            ["sweeplab/analysis/optimal/_gametree.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
