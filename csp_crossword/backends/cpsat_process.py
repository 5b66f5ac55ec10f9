"""A CP-SAT solve, in this process (:func:`solve_here`) or in a child process, which can be
stopped at once (:func:`solve_isolated`).

On large table models CP-SAT does not look at its stop flag or its time limit while it loads the
model: measured on h2110 with words.txt (4.5 million table values), a solve asked to stop after
1 s returned after 9-28 s, and one given 2 s after 12 s. Run in a child process, the solve is
killed as soon as the job is stopped or its deadline passes. The model goes to the child as
CP-SAT's text format (the only one OR-Tools' Python helpers read back): 0.3 s to write and 0.8 s
to read for that model.

The child is ``python -m csp_crossword.backends.cpsat_process``: it reads one JSON request line
on stdin, keeps reading stdin so that it exits when the parent dies (no orphaned solver), and
writes one JSON answer on stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .cpsat_layers import LayeredModel
    from .cpsat_model import CpSatModel

#: Seconds between checks of the stop signal while CP-SAT runs in this process.
STOP_POLL_SECONDS = 0.1
#: Seconds between two looks at the stop signal and the deadline while the child solves.
POLL_SECONDS = 0.05
#: Seconds past the deadline the child is given to answer on its own (CP-SAT's own limit, when
#: it has one, is the deadline) before it is killed.
KILL_GRACE_SECONDS = 0.2


@dataclass
class Outcome:
    """A solve's answer, as CP-SAT gives it.

    Attributes:
        status: CP-SAT's status name (``OPTIMAL``, ``FEASIBLE``, ``INFEASIBLE``,
            ``MODEL_INVALID``, ``UNKNOWN``).
        values: The values of the variables asked for (by proto index), when there is a solution.
        branches, conflicts: CP-SAT's statistics.
        objective, bound: The objective value and its best bound (when optimising).
    """

    status: str
    values: dict[int, int]
    branches: int = 0
    conflicts: int = 0
    objective: float = 0.0
    bound: float = 0.0

    def value_of(self, variable: Any) -> int:
        """The value of ``variable`` (one of those asked for) in the solution."""
        return self.values[variable.index]


def solve_isolated(
    model: cp_model.CpModel,
    parameters: dict[str, Any],
    indexes: list[int],
    *,
    deadline: Deadline,
    stop: StopSignal | None,
) -> Outcome | None:
    """Solve ``model`` with CP-SAT ``parameters`` in a child process; the values of the
    variables at ``indexes``. None when the child was stopped (``stop`` set, Ctrl-C, or the
    deadline passed) before it answered."""
    with tempfile.TemporaryDirectory(prefix="csp-crossword-cpsat-") as folder:
        path = os.path.join(folder, "model.txt")
        if not model.export_to_file(path):
            raise RuntimeError(f"CP-SAT could not write its model to {path}")
        request = json.dumps({"model": path, "parameters": parameters, "indexes": indexes})
        child = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # Ctrl-C at the terminal is the parent's to handle
        )
        assert child.stdin is not None and child.stdout is not None  # both are pipes
        try:
            child.stdin.write(request + "\n")
            child.stdin.flush()
            while child.poll() is None:
                late = deadline is not None and time.monotonic() > deadline + KILL_GRACE_SECONDS
                if late or (stop is not None and stop.is_set()):
                    return None
                time.sleep(POLL_SECONDS)
            answer, errors = child.communicate()
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            for stream in (child.stdin, child.stdout, child.stderr):
                if stream is not None and not stream.closed:
                    stream.close()
    if child.returncode != 0 or not answer.strip():
        raise RuntimeError(f"the CP-SAT child process failed (exit {child.returncode}): {errors.strip()[-500:]}")
    data = json.loads(answer)
    data["values"] = {int(k): v for k, v in data["values"].items()}
    return Outcome(**data)


def solve_here(
    model: CpSatModel | LayeredModel, parameters: dict[str, Any], stop: StopSignal | None, deadline: Deadline = None
) -> Outcome:
    """Solve in this process (CP-SAT's search runs in a helper thread, see _solve_interruptibly),
    stopped once ``stop`` is set or ``deadline`` has passed."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    apply_parameters(solver, parameters)
    finished = threading.Event()
    watch_stop(solver, stop, finished, deadline)
    try:
        status = _solve_interruptibly(solver, model.model)
    finally:
        finished.set()
    name = solver.status_name(status)
    found = name in ("OPTIMAL", "FEASIBLE")
    values = {var.index: int(solver.value(var)) for var in model.solution_vars} if found else {}
    objective = solver.objective_value if found else 0.0
    bound = solver.best_objective_bound if found else 0.0
    return Outcome(name, values, solver.num_branches, solver.num_conflicts, objective, bound)


def _solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Any:
    """``solver.solve(model)`` in a helper thread while this one waits, so a signal (Ctrl-C,
    SIGTERM) reaches Python at once: the search is then stopped and KeyboardInterrupt raised here
    once the solver has returned. (CP-SAT's own SIGINT handler is off: it would swallow Ctrl-C.)"""
    outcome: dict[str, Any] = {}

    def run() -> None:
        outcome["status"] = solver.solve(model)

    thread = threading.Thread(target=run, name="cpsat-solve", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(STOP_POLL_SECONDS)
    except KeyboardInterrupt:
        _stop_until_done(solver, thread)
        raise
    return outcome["status"]


def _stop_until_done(solver: cp_model.CpSolver, thread: threading.Thread) -> None:
    """Stop ``solver``, whose search runs in ``thread``, and wait for it. The stop is asked for
    again at every poll: asked for before the solver's search has begun, it is forgotten when the
    search starts (a race in ``auto`` then ran CP-SAT on for 20-30 s after Ctrl-C)."""
    while thread.is_alive():
        solver.stop_search()
        thread.join(STOP_POLL_SECONDS)


def watch_stop(
    solver: cp_model.CpSolver, stop: StopSignal | None, finished: threading.Event, deadline: Deadline = None
) -> None:
    """Stop ``solver`` once ``stop`` is set (cancellation or a race) or ``deadline`` has passed
    (polled every STOP_POLL_SECONDS) until ``finished`` is set. A deadline watched here rather than
    given to CP-SAT as its time limit leaves its search the same at any load (``cpsat._parameters``)."""
    if stop is None and deadline is None:
        return

    def watch() -> None:
        # asked for again at every poll once set: see _stop_until_done
        while not finished.wait(STOP_POLL_SECONDS):
            if (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline):
                solver.stop_search()

    threading.Thread(target=watch, name="cpsat-stop", daemon=True).start()


def _child() -> int:
    from ortools.sat.python import cp_model

    request = json.loads(sys.stdin.readline())
    # the parent holds our stdin open while it waits: end of file means it is gone
    threading.Thread(target=_exit_when_orphaned, daemon=True).start()
    model = cp_model.CpModel()
    with open(request["model"], encoding="utf-8") as handle:
        if not model.proto.parse_text_format(handle.read()):
            raise RuntimeError("CP-SAT could not read the model")
    solver = cp_model.CpSolver()
    apply_parameters(solver, request["parameters"])
    status = solver.solve(model)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    values = {i: solver.value(model.get_int_var_from_proto_index(i)) for i in request["indexes"]} if found else {}
    answer = {
        "status": solver.status_name(status),
        "values": values,
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "objective": solver.objective_value if found else 0.0,
        "bound": solver.best_objective_bound if found else 0.0,
    }
    sys.stdout.write(json.dumps(answer))
    sys.stdout.flush()
    return 0


def apply_parameters(solver: cp_model.CpSolver, parameters: dict[str, Any]) -> None:
    """Set CP-SAT ``parameters`` (``SatParameters`` field -> value; an enum's value by its name,
    as JSON carries it to the child) on ``solver``."""
    for name, value in parameters.items():
        if isinstance(value, str):
            solver.parameters.merge_text_format(f"{name}: {value}")
        else:
            setattr(solver.parameters, name, value)


def _exit_when_orphaned() -> None:
    sys.stdin.read()
    os._exit(1)


if __name__ == "__main__":
    raise SystemExit(_child())
