"""The batches of the chain's sweeps (sweeplab.analysis.estimate.batches): each super-cell's mean weighs the two directions
of strips by how steady each is, so that strips cutting a structure that moves as a whole do not spread it."""

import random
import time

import numpy as np
import pytest

from sweeplab.analysis.estimate import batches

N = 3  # super-cells of size 1: a column cut by rows, a cell both directions see alike, a cell seen differently


def _sweep(cut: float, alike: float, other: tuple[float, float]):
    """One whole sweep's sums and visits (DIRECTIONS x N): the rows see super-cell 0 as ``cut`` and the columns as
    0.5; both see super-cell 1 as ``alike``; super-cell 2 as ``other`` (rows, columns)."""
    sums = np.array([[cut, alike, other[0]], [0.5, alike, other[1]]])
    return sums, np.ones((batches.DIRECTIONS, N), dtype=np.int64)


def _record(sweeps, per_batch: int = 1) -> batches.Sweeps:
    """A chain's record of ``sweeps`` grouped ``per_batch`` at a time, with the spread its moves left."""
    left = sum(s * (1 - s) for s, _ in sweeps)
    groups = []
    for g in range(0, len(sweeps), per_batch):
        part = sweeps[g : g + per_batch]
        groups.append((sum(s for s, _ in part), sum(v for _, v in part), {5: 1.0}, [0] * N))
    moments = np.zeros((3, batches.DIRECTIONS, N))
    for s, v in sweeps:
        moments += (v > 0, s, s * s)
    return batches.Sweeps(groups, left, moments)


def _means(records) -> np.ndarray:
    out = batches._weighed(records, [1] * N)
    return np.array([[s / v for s, v in zip(sums, visits, strict=True)] for sums, visits, _, _ in out])


def test_strips_that_cut_a_structure_weigh_nothing_beside_strips_that_hold_it():
    """Super-cell 0 is one end of a column the rows cut: the rows find it fixed by the rest (0 or 1, flipping from
    sweep to sweep), the columns hold the column and see 0.5 each time. Every batch mean is the columns' 0.5 (equal
    weights would make it 0 or 1 by half, a spread of 0.5), while a super-cell both directions see alike keeps
    their mean."""
    rng = random.Random(1)
    records = [_record([_sweep(float(rng.random() < 0.5), 0.3, (0.2, 0.2)) for _ in range(4)]) for _ in range(2)]
    means = _means(records)
    assert len(means) == 8
    assert np.all(np.abs(means[:, 0] - 0.5) < 0.01), means[:, 0]
    assert np.allclose(means[:, 1], 0.3) and np.allclose(means[:, 2], 0.2)


def test_a_single_sweep_shows_which_direction_cut_the_structure():
    """With one whole sweep per chain the spread between sweeps is not known within a chain, and the rows may show
    the same value in every sweep by chance: the spread the moves left tells (the rows left none, the columns
    p (1 - p)), so the mean is still the columns'."""
    records = [_record([_sweep(1.0, 0.3, (0.2, 0.2))]) for _ in range(2)]
    means = _means(records)
    assert np.all(np.abs(means[:, 0] - 0.5) < 0.01), means[:, 0]
    lone = batches._weights(np.zeros((3, batches.DIRECTIONS, N)), *_totals(records))  # the spread left alone decides
    assert lone[1, 0] > 100 * lone[0, 0]


def _totals(records):
    sums = sum(g[0] for r in records for g in r.groups)
    visits = sum(g[1] for r in records for g in r.groups)
    return sums, visits, sum(r.left for r in records), [1] * N


def test_two_steady_directions_alike_are_averaged_and_unlike_the_one_conditioned_on_less_wins():
    """Two directions steady from sweep to sweep weigh the same when they agree (the mean is theirs, neither chosen
    for its luck). When they differ, each is fixed by a part of the rest that never moved, and the one whose moves
    left more spread conditions on less of it (the law of total variance): super-cell 2 at 0.25 by the columns
    (leaving 0.19) against 0.1 by the rows (leaving 0.09) takes the columns' value, and 0.4 by the rows (leaving
    0.24) the rows'."""
    records = [_record([_sweep(0.0, 0.3, (0.25, 0.25)) for _ in range(3)]) for _ in range(2)]
    weights = batches._weights(sum(r.moments for r in records), *_totals(records))
    assert weights[0, 2] == pytest.approx(weights[1, 2]) and weights[0, 1] == pytest.approx(weights[1, 1])
    assert np.allclose(_means(records)[:, 1:], [0.3, 0.25])
    for rows, wins in ((0.1, 0.25), (0.4, 0.4)):
        records = [_record([_sweep(0.0, 0.3, (rows, 0.25)) for _ in range(3)]) for _ in range(2)]
        assert np.allclose(_means(records)[:, 2], wins, atol=0.01), (rows, _means(records)[:, 2])


def test_a_super_cell_a_direction_never_visited_takes_the_other_alone():
    """A direction with no visit to a super-cell (as when one chain's strips fell back) gives it no weight."""
    sums, visits = _sweep(0.0, 0.3, (0.2, 0.6))
    visits[1, 2] = 0
    sums[1, 2] = 0.0
    records = [_record([(sums.copy(), visits.copy()) for _ in range(3)])]
    assert np.allclose(_means(records)[:, 2], 0.2)


class _Scripted:
    """A stand-in chain whose sweeps are two strips, one per direction, each over every super-cell, with scripted
    means: what :func:`batches._by_sweeps` records of them can be checked by hand."""

    def __init__(self, sweeps):
        self.sizes, self.x, self.halted, self.direction = [1] * N, [0] * N, False, 0
        self.script = [(d, list(means)) for rows, columns in sweeps for d, means in ((0, rows), (1, columns))]
        self.queue: list[int] = []
        self.at = 0

    def move(self, total):
        if not self.queue:
            self.queue = [0, 1]
        self.queue.pop()
        self.direction, means = self.script[self.at % len(self.script)]
        self.at += 1
        return list(range(N)), means, {5: 1.0}, total


def test_the_sweeps_record_each_directions_means_and_their_moments():
    """Two scripted sweeps, made just past the deadline (the strips' batches make two whole sweeps late rather than
    none): each direction's sums, the moments of its means from sweep to sweep and the spread left."""
    script = [((1.0, 0.3, 0.2), (0.5, 0.3, 0.2)), ((0.0, 0.3, 0.2), (0.5, 0.3, 0.2))]
    chain = _Scripted(script)
    record = batches._by_sweeps(chain, 5, time.perf_counter(), [True] * 10, 10)
    count, total, squares = record.moments
    assert np.allclose(count, 2)
    assert np.allclose(total, [[1.0, 0.6, 0.4], [1.0, 0.6, 0.4]])
    assert np.allclose(squares, [[1.0, 0.18, 0.08], [0.5, 0.18, 0.08]])
    assert np.allclose(record.left, [[0.0, 0.42, 0.32], [0.5, 0.42, 0.32]])
    assert len(record.groups) == 2 and all(np.all(visits == 1) for _, visits, _, _ in record.groups)
    weights = batches._weights(
        record.moments, sum(g[0] for g in record.groups), sum(g[1] for g in record.groups), record.left, [1] * N
    )
    assert weights[1, 0] > 1000 * weights[0, 0]  # the rows flip 1, 0: the columns' steady 0.5 carries the cell
