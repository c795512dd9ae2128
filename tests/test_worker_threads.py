"""gendyn._threads.each: the thread pool shared by the trainers (train_students' parts, simulate's runs)."""

import threading
import time

import pytest

from gendyn._threads import each


@pytest.mark.parametrize("workers", [1, 2, 5, 100])
def test_results_in_the_order_of_the_items(workers):
    def slow_first(x):  # the early items finish last
        time.sleep(0.002 * (6 - x))
        return x * x
    assert each(slow_first, range(6), workers) == [x * x for x in range(6)]


def test_one_worker_is_a_loop_in_the_calling_thread():
    caller = threading.get_ident()
    assert each(lambda _: threading.get_ident(), range(3), 1) == [caller] * 3


def test_several_workers_run_at_once():
    barrier = threading.Barrier(3, timeout=10)  # passes only if three calls are running together
    assert each(lambda x: barrier.wait() >= 0 and x, range(3), 3) == [0, 1, 2]


def test_wrap_sees_every_result_in_order():
    seen = []

    def wrap(results):
        for r in results:
            seen.append(r)
            yield r
    assert each(str, range(4), 2, wrap) == seen == ["0", "1", "2", "3"]


def test_the_first_failure_in_item_order_is_raised():
    def fail(x):
        if x in (1, 3):
            raise ValueError(f"item {x}")
        return x
    for workers in (1, 3):
        with pytest.raises(ValueError, match="item 1"):
            each(fail, range(5), workers)


def test_no_items():
    assert each(str, [], 4) == []
