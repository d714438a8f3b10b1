"""simulate, report and sweep on a real Dask cluster: a scheduler and workers as separate
processes on 127.0.0.1, the same results as on this machine, a worker killed mid-run, Ctrl-C,
and a scheduler that is not there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.simulate import TIMING_KEYS
from tests.conftest import ROOT, MANIFEST_ARG as MANIFEST

#: Bounds on how long the cluster may take to come up and go down.
START_SECONDS, STOP_SECONDS = 60, 15
SWEEP = ["sweep", "--manifest", MANIFEST, "--no-progress", "--json"]


class Cluster:
    """A scheduler and its workers, each its own process, started and stopped by the test module."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.procs: list[subprocess.Popen] = []
        self.workers: dict[str, subprocess.Popen] = {}
        self._count = 0
        self.scheduler = self._spawn("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--scheduler-file", str(self.file), log="scheduler")
        deadline = time.monotonic() + START_SECONDS
        while not (self.file.is_file() and self.file.stat().st_size):
            assert self.scheduler.poll() is None, (folder / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written in one go, but give its writer a moment to finish
        self.address = json.loads(self.file.read_text())["address"]

    def _spawn(self, module: str, *args: str, log: str) -> subprocess.Popen:
        out = open(self.folder / f"{log}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", module, *args], stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, cwd=self.folder)
        out.close()
        self.procs.append(proc)
        return proc

    def start_worker(self) -> str:
        self._count += 1
        name = f"w{self._count}"
        # no nanny: the worker is this one process, so killing it loses a worker (a nanny would restart it)
        self.workers[name] = self._spawn("distributed.cli.dask_worker", "--scheduler-file", str(self.file),
                                         "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                         "--name", name, "--death-timeout", "30", log=name)
        return name

    def names(self) -> set[str]:
        from distributed import Client

        with Client(self.address, timeout=10, set_as_default=False) as client:
            return {str(w["name"]) for w in client.scheduler_info()["workers"].values()}

    def ensure(self, n: int) -> None:
        """Exactly n live workers, as the scheduler sees them."""
        live = [name for name, p in self.workers.items() if p.poll() is None]
        for name in live[n:]:
            self.stop(name)
        for _ in range(n - len(live)):
            self.start_worker()
        wanted = {name for name, p in self.workers.items() if p.poll() is None}
        deadline = time.monotonic() + START_SECONDS
        while self.names() != wanted:
            assert time.monotonic() < deadline, f"workers {wanted} did not join: {self.names()}"
            time.sleep(0.2)

    def stop(self, name: str) -> None:
        proc = self.workers.pop(name)
        proc.terminate()
        try:
            proc.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def tasks(self) -> int:
        from distributed import Client

        with Client(self.address, timeout=10, set_as_default=False) as client:
            return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    made = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        made.ensure(2)
        yield made
    finally:
        made.close()


def run_json(capsys, argv: list[str]) -> dict:
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def untimed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("timing", *TIMING_KEYS)}


def test_done_when_sweep_is_the_same_on_the_cluster(cluster, capsys):
    cluster.ensure(2)
    argv = [*SWEEP, "--param", "target=14,16,18", "--param", "hand_size=4,5", "--players", "4", "--games", "400",
            "--seed", "3"]
    local = run_json(capsys, argv)
    remote = run_json(capsys, [*argv, "--scheduler", cluster.address])
    assert len(remote["cells"]) == 6 and remote["timing"]["backend"] == "dask"
    assert json.dumps(untimed(remote)) == json.dumps(untimed(local))


def test_one_worker_and_many_give_the_same_results(cluster, capsys):
    argv = [*SWEEP, "--param", "play2_draws=1,2", "--players", "3", "--games", "300", "--bots", "greedy,random"]
    local = run_json(capsys, [*argv, "--workers", "1"])
    cluster.ensure(1)
    one = run_json(capsys, [*argv, "--scheduler", cluster.address])
    cluster.ensure(2)
    two = run_json(capsys, [*argv, "--scheduler", cluster.address])
    assert one["timing"]["slots"] == 1 and two["timing"]["slots"] == 2
    assert json.dumps(untimed(one)) == json.dumps(untimed(local)) == json.dumps(untimed(two))


def test_simulate_on_the_cluster(cluster, capsys, tmp_path):
    cluster.ensure(2)
    argv = ["simulate", "--manifest", MANIFEST, "--games", "1500", "--players", "5", "--seed", "8",
            "--bots", "greedy,random", "--option", "all_out=draw", "--json", "--no-progress"]
    local = run_json(capsys, argv)
    remote = run_json(capsys, [*argv, "--scheduler", cluster.address])
    assert remote["games"] == 1500 and remote["workers"] == 2
    assert json.dumps(untimed(remote)) == json.dumps(untimed(local))


def test_report_on_the_cluster(cluster, capsys, tmp_path):
    """Fixed games and play-until-settled rounds both give the same balance.json, byte for byte."""
    cluster.ensure(2)
    for extra in (["--games", "150", "--option", "play2_draws=2"], ["--max-games", "500"]):
        argv = ["report", "--manifest", MANIFEST, "--players", "2,4", "--edition", "only-chaos", *extra]
        assert main([*argv, "--out", str(tmp_path / "local")]) == 0
        assert main([*argv, "--out", str(tmp_path / "remote"), "--scheduler", cluster.address]) == 0
        assert "Dask worker thread(s)" in capsys.readouterr().err
        local = (tmp_path / "local" / "balance.json").read_bytes()
        assert all("card_effects" in c for c in json.loads(local)["cells"]["design"])  # measured there too
        assert (tmp_path / "remote" / "balance.json").read_bytes() == local


def spawn(argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, cwd=ROOT)


def test_a_killed_worker_changes_no_result(cluster, capsys):
    """A worker dies (SIGKILL) while it plays a chunk: the scheduler re-runs its chunks elsewhere."""
    from distributed import Client

    cluster.ensure(2)
    victim = cluster.start_worker()
    cluster.ensure(3)
    argv = [*SWEEP, "--param", "target=15,16,17", "--players", "4", "--games", "4000", "--bots", "random", "--seed", "4"]
    proc = spawn([*argv, "--scheduler", cluster.address])
    killed = False
    try:
        with Client(cluster.address, timeout=10, set_as_default=False) as client:
            deadline = time.monotonic() + START_SECONDS
            while not killed:
                assert proc.poll() is None, "the sweep ended before the worker could be killed"
                assert time.monotonic() < deadline, "the victim never got a chunk"
                busy = {str(w["name"]) for addr, w in client.scheduler_info()["workers"].items()
                        if client.processing().get(addr)}
                if victim in busy:
                    cluster.workers[victim].send_signal(signal.SIGKILL)
                    killed = True
                time.sleep(0.05)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 0, err
    assert "distributed." not in err and " - WARNING - " not in err and " - ERROR - " not in err  # Dask's own log lines
    cluster.workers.pop(victim).wait(STOP_SECONDS)
    remote = json.loads(out)
    local = run_json(capsys, argv)
    assert json.dumps(untimed(remote)) == json.dumps(untimed(local))


def test_ctrl_c_cancels_the_clusters_work_and_exits_130(cluster):
    cluster.ensure(2)
    proc = spawn([*SWEEP, "--param", "target=14..19", "--players", "4", "--games", "1000000", "--bots", "random",
                  "--scheduler", cluster.address])
    try:
        deadline = time.monotonic() + START_SECONDS
        while cluster.tasks() < 2:  # the run has sent its work
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the sweep never sent work"
            time.sleep(0.1)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        seconds = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130 and out == "" and "interrupted" in err and "Traceback" not in err
    assert seconds < 10
    deadline = time.monotonic() + STOP_SECONDS
    while cluster.tasks():  # the scheduler forgets the cancelled chunks
        assert time.monotonic() < deadline, "the cluster kept the sweep's work"
        time.sleep(0.2)


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "10", "--players", "4"],
    ["report", "--games", "10", "--players", "4", "--edition", "the-og"],
    ["sweep", "--param", "target=14", "--games", "10"],
])
def test_a_scheduler_that_is_not_there_is_a_clear_error(capsys, tmp_path, command):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    extra = ["--out", str(tmp_path)] if command[0] == "report" else []
    started = time.monotonic()
    status = main([*command, "--manifest", MANIFEST, *extra, "--scheduler", f"tcp://127.0.0.1:{port}"])
    seconds = time.monotonic() - started
    err = capsys.readouterr().err
    assert status == 2 and f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert "Traceback" not in err and seconds < 15
    assert main([*command, "--manifest", MANIFEST, *extra, "--scheduler", "my-laptop"]) == 2
    assert "--scheduler takes a Dask scheduler's address such as tcp://10.0.0.5:8786, not 'my-laptop'" in capsys.readouterr().err


def test_a_cluster_that_gives_up_on_a_chunk_is_a_clear_error(capsys, monkeypatch):
    """Dask gives up on a task whose workers keep dying (KilledWorker): the run stops with one
    line (exit 1), not a traceback, and no summary is printed from partial counts."""
    from collections import deque
    from types import SimpleNamespace

    from distributed import KilledWorker

    from generator import backends

    class Dead:
        status = "error"

        def result(self, timeout=None):
            raise KilledWorker("play_chunk-1", SimpleNamespace(address="tcp://127.0.0.1:4001"), 3)

    class Cluster(backends.DaskBackend):
        def __init__(self, address):
            self.address, self.slots, self._futures = address, 2, deque()

        def map_chunks(self, fn, context, chunks):
            for _ in chunks:
                self._futures.append(Dead())
                yield self._take()

        def close(self):
            pass

    monkeypatch.setattr(backends, "DaskBackend", Cluster)
    status = main([*SWEEP, "--param", "target=15", "--games", "10", "--scheduler", "tcp://127.0.0.1:4000"])
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert "the Dask cluster at tcp://127.0.0.1:4000 failed during the run (KilledWorker" in err
    assert "Traceback" not in err


def test_ctrl_c_on_the_cluster_keeps_the_chunks_that_had_finished(deck):
    """Ctrl-C while the first chunk still runs on the cluster: the chunks after it that had
    finished are counted (as on local processes), the others cancelled."""
    from collections import deque

    from generator import backends
    from generator.report.run import Variant, run
    from generator.report.summarize import Cell

    class Future:
        def __init__(self, result=None):
            self.status = "pending" if result is None else "finished"
            self._result = result

        def result(self, timeout=None):
            assert self.status == "finished"
            return self._result

    cancelled: list = []

    class Cluster(backends.DaskBackend):
        def __init__(self):
            self.address, self.slots, self._futures, self._done_early = "tcp://127.0.0.1:4000", 2, deque(), []
            self.client = type("Client", (), {"cancel": lambda _self, futures, force: cancelled.extend(futures)})()

        def map_chunks(self, fn, context, chunks):
            chunks = list(chunks)
            self._futures.append(Future())  # the first chunk: still running
            self._futures.extend(Future(fn(context, c)) for c in chunks[1:3])  # two done after it
            self._futures.extend(Future() for _ in chunks[3:])
            raise KeyboardInterrupt  # Ctrl-C while waiting for the first
            yield  # pragma: no cover -- a generator, as the real one

    from generator.report.run import CHUNK

    size = CHUNK * Cluster.chunk_scale  # games per chunk on a cluster
    cell = Cell("the-og", 4, "random")
    outcome = run([Variant("design", "cards.yaml", deck, {})], [cell], {cell: 10 * size}, seed=7, workers=None,
                  backend=Cluster())
    assert outcome.interrupted and outcome.games_planned == 10 * size
    assert outcome.games_done == 2 * size  # the two chunks that had finished
    assert len(cancelled) == 8 and all(f.status == "pending" for f in cancelled)


def test_a_sweep_s_ladder_bot_travels_to_the_workers(cluster, capsys):
    """ISMCTS (through the OpenSpiel adapter) and search:N are named on the command line and made on
    the Dask workers: the cluster plays the very games this machine plays, not greedy's."""
    from tests.ai.extra import need

    need("pyspiel")
    cluster.ensure(2)
    argv = [*SWEEP, "--param", "play2_draws=1,2", "--players", "2", "--games", "8", "--seed", "5",
            "--edition", "keep-it-simple", "--bots", "ismcts:4,search:16"]
    local = run_json(capsys, [*argv, "--workers", "1"])
    remote = run_json(capsys, [*argv, "--scheduler", cluster.address])
    assert remote["timing"]["backend"] == "dask"
    assert remote["settings"]["verdict_bots"] == "ismcts:4,search:16"
    assert "information-set MCTS, 4 simulations" in remote["settings"]["verdict_rests_on"]
    assert json.dumps(untimed(remote)) == json.dumps(untimed(local))
    greedy = run_json(capsys, [*argv[:-2], "--bots", "greedy", "--workers", "1"])
    played = [json.dumps({k: v for k, v in c.items() if k != "bots"}) for c in local["cells"]]
    assert [json.dumps({k: v for k, v in c.items() if k != "bots"}) for c in greedy["cells"]] != played


COMMANDS = [
    ["simulate", "--games", "10", "--players", "4"],
    ["report", "--games", "10", "--players", "4", "--edition", "the-og"],
    ["sweep", "--param", "target=14", "--games", "10"],
]
#: What the issue asks: a cluster that cannot answer is refused within this many seconds.
REFUSED_WITHIN = 30


@pytest.fixture(scope="module")
def black_hole():
    """A TCP server on 127.0.0.1 that accepts every connection and never sends a byte."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list = []
    stop = threading.Event()

    def serve():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()
        assert held, "no command ever connected"


def _run_refused(tmp_path, command: list[str], scheduler: str) -> tuple[int, str, float]:
    """The command as a process of its own, stopped (and the test failed) if it outlasts the bound."""
    extra = ["--out", str(tmp_path / "report")] if command[0] == "report" else []
    started = time.monotonic()
    proc = spawn([*command, "--manifest", MANIFEST, *extra, "--scheduler", scheduler])
    try:
        out, err = proc.communicate(timeout=REFUSED_WITHIN + 10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    seconds = time.monotonic() - started
    assert out == "" and "Traceback" not in err
    assert all(line.startswith(("county-uppy", "waiting up to")) for line in err.splitlines()), err  # no Dask log line
    assert not (tmp_path / "report" / "balance.json").exists()
    return proc.returncode, err, seconds


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_scheduler_that_accepts_and_never_answers_is_refused_in_seconds(tmp_path, black_hole, command):
    """Dask's client waits for the scheduler's handshake with no limit: simulate, report and sweep hung for good."""
    status, err, seconds = _run_refused(tmp_path, command, black_hole)
    assert status == 2 and seconds < REFUSED_WITHIN
    assert f"the Dask scheduler at {black_hole} did not answer within 8 s" in err
    assert "accepts connections but does not answer as a Dask scheduler" in err


@pytest.fixture(scope="module")
def workerless(tmp_path_factory):
    """A real scheduler that never gets a worker."""
    made = Cluster(tmp_path_factory.mktemp("workerless"))
    try:
        yield made
    finally:
        made.close()


@pytest.mark.parametrize("command", [COMMANDS[1], COMMANDS[2]], ids=lambda c: c[0])
def test_a_scheduler_with_no_worker_is_refused_after_a_bounded_wait(tmp_path, workerless, command):
    """It printed 'waiting for a Dask worker to join' and waited for ever."""
    from generator.backends import WORKER_WAIT

    status, err, seconds = _run_refused(tmp_path, command, workerless.address)
    assert status == 2 and WORKER_WAIT <= seconds < REFUSED_WITHIN
    assert err.splitlines()[0] == f"waiting up to {WORKER_WAIT:g} s for a Dask worker to join {workerless.address}..."
    assert f"no Dask worker joined the scheduler at {workerless.address} within {WORKER_WAIT:g} s; start one with " \
           f"`dask worker {workerless.address}`" in err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_empty_scheduler_is_an_error(tmp_path, command):
    """`--scheduler ''` (an unset variable in a script) ran every game on this machine without a word."""
    status, err, _ = _run_refused(tmp_path, command, "")
    assert status == 2
    assert "--scheduler takes a Dask scheduler's address such as tcp://10.0.0.5:8786, not ''" in err


def test_a_cluster_whose_last_worker_dies_stops_the_run_after_a_bounded_wait(tmp_path):
    """The only worker is killed mid-run: the run stops with one line and exit 1 within a bound,
    whether the scheduler forgets the chunks (a cancelled future) or keeps them for a worker that
    never comes (then after WORKER_WAIT seconds without one), and Dask's log lines stay out."""
    from distributed import Client

    from generator.backends import CHECK_SECONDS, WORKER_WAIT

    lonely = Cluster(tmp_path)
    try:
        lonely.ensure(1)
        [name] = lonely.workers
        proc = spawn([*SWEEP, "--param", "target=14..19", "--players", "4", "--games", "1000000", "--bots", "random",
                      "--scheduler", lonely.address])
        try:
            with Client(lonely.address, timeout=10, set_as_default=False) as client:
                deadline = time.monotonic() + START_SECONDS
                while not any(client.processing().values()):  # the run has sent its work
                    assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
                    time.sleep(0.1)
            lonely.workers[name].send_signal(signal.SIGKILL)
            killed = time.monotonic()
            out, err = proc.communicate(timeout=WORKER_WAIT + 4 * CHECK_SECONDS + 30)
            seconds = time.monotonic() - killed
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
        assert proc.returncode == 1 and out == ""
        [said] = [line for line in err.splitlines() if not line.startswith("playing ")]
        assert said.startswith(f"county-uppy sweep: the Dask cluster at {lonely.address} ")
        assert "Traceback" not in err and "distributed." not in err
        assert seconds <= WORKER_WAIT + 3 * CHECK_SECONDS + 10
    finally:
        lonely.close()


def test_a_scheduler_that_stops_answering_mid_run_stops_the_run(tmp_path):
    """The scheduler is frozen (SIGSTOP: it holds its connections and answers nothing, a black hole
    in the middle of a run): the run waited on its chunk for ever. It stops with one line, exit 1."""
    from distributed import Client

    from generator.backends import CHECK_SECONDS, CONNECT_TIMEOUT, HANDSHAKE_TIMEOUT

    frozen = Cluster(tmp_path)
    try:
        frozen.ensure(1)
        proc = spawn([*SWEEP, "--param", "target=14..19", "--players", "4", "--games", "1000000", "--bots", "random",
                      "--scheduler", frozen.address])
        try:
            with Client(frozen.address, timeout=10, set_as_default=False) as client:
                deadline = time.monotonic() + START_SECONDS
                while not any(client.processing().values()):
                    assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
                    time.sleep(0.1)
            frozen.scheduler.send_signal(signal.SIGSTOP)
            stopped = time.monotonic()
            out, err = proc.communicate(timeout=REFUSED_WITHIN + 30)
            seconds = time.monotonic() - stopped
        finally:
            frozen.scheduler.send_signal(signal.SIGCONT)
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
        assert proc.returncode == 1 and out == ""
        assert f"county-uppy sweep: the Dask scheduler at {frozen.address} stopped answering during the run" in err
        assert "Traceback" not in err and "distributed." not in err
        assert seconds <= CHECK_SECONDS + CONNECT_TIMEOUT + HANDSHAKE_TIMEOUT + 10
    finally:
        frozen.close()
