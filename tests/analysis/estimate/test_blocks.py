"""Blocks of a component (sweeplab.analysis.estimate.blocks): a first solution of a wide component, and repairs."""

import random
import time

from sweeplab.analysis.estimate.blocks import Blocks
from sweeplab.analysis.exact.components import Component, build_components
from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.analysis.exact.counting import _Plan
from tests.analysis.compiled import needs_chain
from tests.analysis.positions import strewn


def _largest(obs):
    return max(build_components(constraints_from(obs).constraints), key=lambda c: len(c.cells))


def _holds(blocks, component):
    for js, m, _ in component.constraints:
        assert sum(blocks.x[j] for j in js) == m
    assert all(0 <= v <= len(sc) for v, sc in zip(blocks.x, component.supercells, strict=True))
    assert not any(blocks.residual)


def test_a_first_solution_of_a_wide_component():
    obs, _ = strewn(128, 128, 2000, 0.1)
    component = _largest(obs)
    assert len(component.cells) > 1500
    blocks = Blocks(component, random.Random(0), 48)
    assert blocks.first(component, time.perf_counter() + 30)
    _holds(blocks, component)


def test_repair_mends_every_broken_number():
    obs, _ = strewn(64, 64, 500, 0.15)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(1), 48)
    blocks.assign(list(range(len(blocks.x))), [len(sc) // 2 for sc in component.supercells])
    assert any(blocks.residual)
    assert blocks.repair(time.perf_counter() + 30)
    _holds(blocks, component)


def test_no_time_no_solution():
    obs, _ = strewn(128, 128, 2000, 0.1)
    component = _largest(obs)
    assert not Blocks(component, random.Random(0), 48).first(component, time.perf_counter() - 1)


def test_strips_tile_the_component_twice_and_their_inner_halves_once():
    obs, _ = strewn(64, 48, 450, 0.1)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(0), 48)
    n = len(blocks.x)
    for height in (8, 12, 24):
        strips = blocks.strips(obs.board.width, height)
        every = sorted(j for block, _ in strips for j in block)
        assert every == sorted(list(range(n)) * 2)  # each tiling holds every super-cell once
        inner = sorted(block[p] for block, positions in strips for p in positions)
        assert inner == list(range(n)), height  # the inner halves hold each super-cell exactly once
        along, across = blocks.axes(obs.board.width)
        for block, _ in strips:  # each strip runs along the longer side, in order
            assert [along[j] for j in block] == sorted(along[j] for j in block)
            assert max(across[j] for j in block) - min(across[j] for j in block) < height
    one = blocks.strips(obs.board.width, 8, tilings=1)
    assert sorted(j for block, _ in one for j in block) == list(range(n))


@needs_chain
def test_the_plans_built_in_c_are_the_twins_of_the_python_plans():
    obs, _ = strewn(64, 48, 450, 0.1)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(0), 48)
    shapes = [block for block, _ in blocks.strips(obs.board.width, 8)] + [blocks.ball(j, 48) for j in range(0, len(blocks.x), 7)]
    for shape in shapes:
        block, plan, ids = blocks.plan_of(shape)
        local = {j: p for p, j in enumerate(block)}
        sub = [(tuple(local[k] for k in inside), n, i) for n, (i, inside) in enumerate(ids)]
        python = _Plan(Component([(0,) * blocks.sizes[j] for j in block], sub), list(range(len(block))))
        assert plan.steps == python.steps
        assert (plan.order, plan.sizes, plan.cells, plan.mines) == (python.order, python.sizes, python.cells, python.mines)


@needs_chain
def test_the_packed_plans_move_and_need_as_the_python_plans_do():
    """Blocks.packed (built in C) against Blocks.plan_of: the same needs, and the same move from the same seed, for
    every strip and for the numbers a first solution counts (those within the done super-cells and the block)."""
    from sweeplab.analysis.estimate.kernel import CHAIN

    obs, _ = strewn(64, 48, 450, 0.1)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(0), 48)
    assert blocks.first(component, time.perf_counter() + 30)
    done, skip = bytearray(len(blocks.x)), bytearray(len(blocks.cons))
    done[::3] = b"\x01" * len(done[::3])
    skip[::7] = b"\x01" * len(skip[::7])
    for block, _ in blocks.strips(obs.board.width, 12):
        inside = set(block)
        only = {
            i for j in block for i in blocks.touching[j] if not skip[i] and all(done[k] or k in inside for k in blocks.cons[i][0])
        }
        for python, packed in (
            (blocks.plan_of(block), blocks.packed(block)),
            (blocks.plan_of(block, only), blocks.packed(block, done, skip)),
        ):
            _, plan, ids = python
            steps, packed_ids, cells = packed
            assert cells == plan.cells
            assert blocks.packed_needs(packed_ids) == blocks.needs(ids)
            weights = [1.0] * (cells + 1)
            expected = CHAIN.move(plan.sizes, plan.steps, blocks.needs(ids), weights, 100_000, 7)
            assert CHAIN.move(None, steps, blocks.packed_needs(packed_ids), weights, 100_000, 7) == expected


@needs_chain
def test_the_assignment_in_c_keeps_the_residuals_as_python_does():
    obs, _ = strewn(64, 48, 450, 0.1)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(0), 48)
    rng = random.Random(1)
    for _ in range(20):
        block = blocks.ball(rng.randrange(len(blocks.x)), 30)
        blocks.assign(block, [rng.randint(0, blocks.sizes[j]) for j in block])
    expected = [m - sum(blocks.x[j] for j in js) for js, m in blocks.cons]
    assert blocks.residual == expected


@needs_chain
def test_the_least_broken_count_in_c_breaks_as_little_as_the_python_count():
    """``_chain.least_broken`` against :meth:`Blocks._least_broken` on balls of a badly broken assignment: with room
    for every partial state, both find an assignment that breaks the least (the same sum of |residual| over the
    numbers touching the ball); with few states, the C count still gives every super-cell a value it can hold."""
    from sweeplab.analysis.estimate.kernel import CHAIN

    obs, _ = strewn(64, 48, 450, 0.1)
    component = _largest(obs)
    blocks = Blocks(component, random.Random(0), 48)
    rng = random.Random(2)
    blocks.assign(list(range(len(blocks.x))), [rng.randint(0, size) for size in blocks.sizes])

    def broken_after(block, values):
        saved = [blocks.x[j] for j in block]
        blocks.assign(block, values)
        out = sum(abs(blocks.residual[i]) for i in {i for j in block for i in blocks.touching[j]})
        blocks.assign(block, saved)
        return out

    for size in (4, 16, 32):
        for _ in range(15):
            center = rng.randrange(len(blocks.x))
            block, plan, ids = blocks.prepared(center, size)
            python = blocks._least_broken(block, plan, blocks.steps(plan, ids), states=10**6)
            packed, packed_ids, _ = blocks.packed(block)
            c = CHAIN.least_broken(packed, blocks.packed_needs(packed_ids), 10**6, rng.getrandbits(64) | 1)
            assert broken_after(block, c) == broken_after(block, python)
            few = CHAIN.least_broken(packed, blocks.packed_needs(packed_ids), 3, 5)
            assert all(0 <= v <= blocks.sizes[j] for j, v in zip(block, few, strict=True))
            assert broken_after(block, few) >= broken_after(block, python)
