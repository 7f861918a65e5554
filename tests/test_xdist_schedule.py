"""tests/xdist_schedule.py's order, driven as pytest-xdist drives it (two stand-in workers that
record what they are sent): the ported programs are units of their own, the units of `COSTS`
go first, longest first, and the rest follow in xdist's order (most tests first)."""

from types import SimpleNamespace

import pytest

from tests import xdist_schedule

COLLECTION = [
    "tests/a/test_many.py::test_0",
    "tests/a/test_many.py::test_1",
    "tests/a/test_many.py::test_2",
    "tests/b/test_long.py::test_0",
    "tests/porting/test_ported_x.py::test_p[fast]",
    "tests/porting/test_ported_x.py::test_p[slow]",
    "tests/c/test_two.py::test_0",
    "tests/c/test_two.py::test_1",
]


class _Worker:
    """Records the node ids it is sent, in `sent` and in the shared `order`."""

    def __init__(self, name: str, order: list[str]):
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[str] = []
        self.order = order

    def send_runtest_some(self, indexes):
        self.sent += [COLLECTION[i] for i in indexes]
        self.order += [COLLECTION[i] for i in indexes]

    def shutdown(self):
        self.shutting_down = True


def test_longest_units_first_and_programs_one_each(monkeypatch):
    monkeypatch.setattr(xdist_schedule, "COSTS", {"tests/b/test_long.py": 30.0})
    monkeypatch.setattr(xdist_schedule, "PROGRAM_COSTS", {"slow": 50.0})
    tx = {"tx": ["2*popen"]}
    config = SimpleNamespace(getvalue=tx.get, option=SimpleNamespace(loadscopereorder=True))
    sched = xdist_schedule.LongestFirst(config)
    order: list[str] = []
    workers = [_Worker("gw0", order), _Worker("gw1", order)]
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, COLLECTION)
    sched.schedule()
    assert [w.sent[0] for w in workers] == [COLLECTION[5], COLLECTION[3]]
    while not all(w.shutting_down for w in workers):
        for w in workers:
            for nodeid in w.sent:
                sched.mark_test_complete(w, COLLECTION.index(nodeid))
            w.sent = []
    assert order == [COLLECTION[i] for i in (5, 3, 0, 1, 2, 6, 7, 4)]


@pytest.mark.parametrize("dist", ["load", "no"])
def test_other_modes_keep_xdists_schedulers(dist):
    from tests.conftest import pytest_xdist_make_scheduler

    assert pytest_xdist_make_scheduler(SimpleNamespace(getvalue={"dist": dist}.get), None) is None


JUNIT = """<testsuites><testsuite>
<testcase classname="tests.a.test_many" name="test_0" time="1.0"/>
<testcase classname="tests.a.test_many.TestK" name="test_1" time="2.0"/>
<testcase classname="tests.porting.test_ported_x" name="test_p[slow]" time="5.0"/>
<testcase classname="tests.porting.test_ported_x" name="test_p[fast]" time="1.5"/>
</testsuite></testsuites>"""


def test_junit_units_and_replay(tmp_path):
    (tmp_path / "junit.xml").write_text(JUNIT)
    units = xdist_schedule.junit_units(str(tmp_path / "junit.xml"))
    assert units == {
        "tests/a/test_many.py": (3.0, 2),
        "tests/porting/test_ported_x.py::test_p[slow]": (5.0, 1),
        "tests/porting/test_ported_x.py::test_p[fast]": (1.5, 1),
    }
    longest_first = sorted(units, key=lambda u: -units[u][0])  # 5 | 3 + 1.5
    assert xdist_schedule.replay(units, longest_first) == 5.0
    assert xdist_schedule.replay(units, longest_first[::-1]) == 6.5  # 1.5 + 5 | 3
