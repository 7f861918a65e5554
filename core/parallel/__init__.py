"""Running one program on several devices at once: the machinery under `pmap`.

`axis_env` names the axes `pmap` binds (while a program is traced and compiled, and in each
device thread while it runs), `communicator` lets the device threads (and, over MPI, the
processes) exchange values, and `collective_ops` is what a collective (`psum`, `all_gather`,
`axis_index`...) does on a device: eagerly, and from compiled code through a host call.
`dispatch` runs a compiled per-device program on the device threads and stacks the results;
`shared_work` gives the kernels whose results are the same on every device (an optimizer
update after the psum of the gradients) to one device each; `pmap_prim` is the `pmap`
primitive, whose rules keep transformed pmaps on the devices.
"""
