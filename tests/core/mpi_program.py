"""The program `tests/core/test_distributed.py` runs under `mpiexec -n 2` (2 devices per process):
each process writes what each part of core.distributed gave to `<directory>/<process>.json`
(a file each: mpiexec may interleave long stdout lines of the two processes).
The test imports `collectives` and `loss` to compute the same with one process of 4 devices."""

import json
import sys
import time
from pathlib import Path

import numpy as np

import core
import core.numpy as jnp
from core import lax
from core.experimental import multihost_utils
from core.jit import threads


def collectives(x):
    """The pmapped collectives compared across processes (axis name "i", 4 devices)."""
    return (
        x / lax.psum(x, "i"),
        lax.axis_index("i"),
        lax.all_gather(x, "i"),
        lax.pmax(x, "i"),
        lax.ppermute(x, "i", [(0, 3), (3, 0), (1, 2), (2, 1)]),
    )


def loss(w, x):
    return jnp.sum(jnp.tanh(x * w) ** 2)


def enclosing(w, x):
    """A function enclosing a pmap (x mapped over the devices): its gradient transposes the
    pmap, psum included, across the processes."""
    per_device = lambda w, x: jnp.sum(jnp.tanh(x * w) * lax.psum(x, "i"))
    return core.pmap(per_device, axis_name="i", in_axes=(None, 0))(w, x).sum()


def sync(name: str) -> None:
    multihost_utils.sync_global_devices(name)


def waited(exchange) -> list[float]:
    """Process 0's wall and CPU seconds in `exchange()` while process 1 joins 0.5 s late."""
    sync("before")
    wall, cpu = time.perf_counter(), time.process_time()
    if core.process_index() == 1:
        time.sleep(0.5)
    exchange()
    return [time.perf_counter() - wall, time.process_time() - cpu]


def main() -> None:
    core.distributed.initialize()  # before any device is used; imports create none
    p = core.process_index()
    out = {
        "process": [p, core.process_count(), core.host_count(), core.host_id()],
        "devices": [repr(d) for d in core.devices()],
        "owners": [d.process_index for d in core.devices()],
        "local": [d.id for d in core.local_devices()],
        "counts": [core.device_count(), core.local_device_count()],
        "cores": [threads.usable_cores(), threads.process_cores()],
    }
    # The global batch np.arange(4.) over the 4 devices of the 2 processes: 2 elements each.
    x = np.arange(4.0, dtype=np.float32)[2 * p : 2 * p + 2]
    gathered = core.pmap(collectives, axis_name="i")(x)
    out["normalize"], out["axis_index"], out["all_gather"], out["pmax"], out["ppermute"] = [
        np.asarray(v).tolist() for v in gathered
    ]
    grads = core.pmap(
        lambda w, x: lax.pmean(core.grad(loss)(w, x), "i"), axis_name="i", in_axes=(None, 0)
    )(jnp.float32(0.5), x)
    out["pmean_grad"] = np.asarray(grads).tolist()
    # Each process differentiates the sum of its own devices' outputs.
    out["enclosing_grad"] = [
        float(core.grad(enclosing)(jnp.float32(0.5), x)),
        float(core.jit(core.grad(enclosing))(jnp.float32(0.5), x)),
    ]
    out["allgather"] = multihost_utils.process_allgather({"p": np.float32(p)})["p"].tolist()
    out["allgather_tiled"] = multihost_utils.process_allgather(x, tiled=True).tolist()
    out["broadcast"] = np.asarray(multihost_utils.broadcast_one_to_all(np.arange(3) + p)).tolist()
    out["broadcast_from_1"] = int(multihost_utils.broadcast_one_to_all(p * 10, is_source=p == 1))
    exchange = core.distributed.device_exchange()
    local = [np.full(2, 10 * p + i, np.float32) for i in range(2)]
    out["exchange_f32"] = [[v.tolist() for v in values] for values in exchange.allgather(local)]
    bf16 = [np.asarray(v, core.numpy.bfloat16) for v in local]  # no MPI datatype: pickled
    out["exchange_bf16"] = [[float(v[0]) for v in values] for values in exchange.allgather(bf16)]
    out["waits"] = [waited(lambda: exchange.allgather(local)), waited(lambda: sync("late"))]
    multihost_utils.sync_global_devices("end")
    Path(sys.argv[1], f"{p}.json").write_text(json.dumps(out))


if __name__ == "__main__":
    main()
