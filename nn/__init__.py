"""nn: a Flax-linen-like module system and its layers (``import nn`` ≈ ``import flax.linen as nn``).

Models subclass :class:`Module` (a dataclass), declare submodules and parameters in ``setup``
or inline in an ``@nn.compact`` method, and run through ``init``/``apply`` with plain-dict
variables ``{'params': ..., 'batch_stats': ...}``.

The training recipe with BatchNorm and Dropout (``tests/nn/test_train_step.py`` runs it)::

    class Model(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool):
            x = nn.Dense(32)(x)
            x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
            x = nn.Dropout(0.2, deterministic=not train)(nn.relu(x))
            return nn.Dense(10)(x)

    model = Model()
    variables = model.init(core.random.key(0), x, train=False)
    params, batch_stats = variables["params"], variables["batch_stats"]

    @core.jit
    def train_step(params, batch_stats, x, y, dropout_key):
        def loss_fn(params):
            logits, updates = model.apply(
                {"params": params, "batch_stats": batch_stats}, x, train=True,
                rngs={"dropout": dropout_key}, mutable=["batch_stats"])
            return cross_entropy(logits, y), updates["batch_stats"]
        (loss, batch_stats), grads = core.value_and_grad(loss_fn, has_aux=True)(params)
        params = core.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
        return params, batch_stats, loss

    for step in range(steps):
        dropout_key = core.random.fold_in(core.random.key(1), step)
        params, batch_stats, loss = train_step(params, batch_stats, x, y, dropout_key)
    logits = model.apply({"params": params, "batch_stats": batch_stats}, x, train=False)
"""

from nn import (
    activation,
    core,
    errors,
    fp8_ops,
    initializers,
    meta,
    partitioning,
    spmd,
    traverse_util,
)
from nn.activation import *  # noqa: F403  (PReLU and the activations: see its __all__)
from nn.attention import (
    MultiHeadAttention,
    MultiHeadDotProductAttention,
    SelfAttention,
    combine_masks,
    dot_product_attention,
    dot_product_attention_weights,
    make_attention_mask,
    make_causal_mask,
)
from nn.batch_apply import BatchApply
from nn.combinators import Sequential
from nn.fp8_ops import (
    Fp8DirectDotGeneralOp,
    Fp8DotGeneral,
    Fp8DotGeneralOp,
    Fp8Einsum,
    NANOOFp8DotGeneralOp,
)
from nn.frozen_dict import FrozenDict, freeze, unfreeze
from nn.initializers import ones, ones_init, zeros, zeros_init
from nn.linear import Conv, ConvLocal, ConvTranspose, Dense, DenseGeneral, Einsum, Embed
from nn.meta import (
    PARTITION_NAME,
    LogicallyPartitioned,
    Partitioned,
    RulesFallback,
    get_logical_axis_rules,
    get_partition_spec,
    get_sharding,
    logical_axis_rules,
    logical_to_mesh,
    logical_to_mesh_axes,
    set_logical_axis_rules,
    unbox,
    with_logical_constraint,
    with_logical_partitioning,
    with_partitioning,
)
from nn.module import (
    InterceptorContext,
    Module,
    apply,
    compact,
    compact_name_scope,
    disable_named_call,
    enable_named_call,
    init,
    init_with_output,
    intercept_methods,
    merge_param,
    nowrap,
    override_named_call,
    share_scope,
)
from nn.normalization import (
    BatchNorm,
    GroupNorm,
    InstanceNorm,
    LayerNorm,
    RMSNorm,
    SpectralNorm,
    WeightNorm,
)
from nn.pooling import avg_pool, max_pool, pool  # min_pool: nn.pooling only, as in Flax
from nn.recurrent import (
    RNN,
    Bidirectional,
    ConvLSTMCell,
    GRUCell,
    LSTMCell,
    MGUCell,
    OptimizedLSTMCell,
    RNNCellBase,
    SimpleCell,
)
from nn.scope import DenyList, Scope
from nn.spmd import logical_to_mesh_sharding
from nn.stochastic import Dropout
from nn.summary import parameter_overview, tabulate
from nn.transforms import (
    add_metadata_axis,
    broadcast,
    checkpoint,
    cond,
    custom_vjp,
    fold_rngs,
    grad,
    jit,
    jvp,
    map_variables,
    named_call,
    remat,
    remat_scan,
    scan,
    switch,
    value_and_grad,
    vjp,
    vmap,
    while_loop,
)
from nn.variables import Variable

__all__ = [
    "add_metadata_axis",
    "RNN",
    "BatchApply",
    "BatchNorm",
    "Bidirectional",
    "Conv",
    "ConvLocal",
    "ConvTranspose",
    "Dense",
    "DenseGeneral",
    "DenyList",
    "Dropout",
    "Einsum",
    "Embed",
    "Fp8DirectDotGeneralOp",
    "Fp8DotGeneral",
    "Fp8DotGeneralOp",
    "Fp8Einsum",
    "NANOOFp8DotGeneralOp",
    "fp8_ops",
    "GRUCell",
    "GroupNorm",
    "InstanceNorm",
    "InterceptorContext",
    "MGUCell",
    "ConvLSTMCell",
    "SpectralNorm",
    "WeightNorm",
    "LSTMCell",
    "LayerNorm",
    "LogicallyPartitioned",
    "Module",
    "MultiHeadAttention",
    "MultiHeadDotProductAttention",
    "OptimizedLSTMCell",
    "PARTITION_NAME",
    "Partitioned",
    "RMSNorm",
    "RNNCellBase",
    "RulesFallback",
    "Scope",
    "SelfAttention",
    "Sequential",
    "SimpleCell",
    "Variable",
    "FrozenDict",
    "apply",
    "disable_named_call",
    "enable_named_call",
    "freeze",
    "get_logical_axis_rules",
    "get_partition_spec",
    "get_sharding",
    "logical_axis_rules",
    "logical_to_mesh",
    "logical_to_mesh_axes",
    "logical_to_mesh_sharding",
    "meta",
    "partitioning",
    "spmd",
    "ones",
    "ones_init",
    "override_named_call",
    "set_logical_axis_rules",
    "share_scope",
    "unbox",
    "unfreeze",
    "with_logical_constraint",
    "with_logical_partitioning",
    "with_partitioning",
    "zeros",
    "zeros_init",
    "broadcast",
    "checkpoint",
    "cond",
    "custom_vjp",
    "grad",
    "fold_rngs",
    "jit",
    "jvp",
    "map_variables",
    "named_call",
    "remat",
    "remat_scan",
    "scan",
    "switch",
    "value_and_grad",
    "vjp",
    "vmap",
    "while_loop",
    "avg_pool",
    "combine_masks",
    "compact",
    "compact_name_scope",
    "core",
    "dot_product_attention",
    "dot_product_attention_weights",
    "errors",
    "init",
    "init_with_output",
    "intercept_methods",
    "initializers",
    "make_attention_mask",
    "make_causal_mask",
    "max_pool",
    "merge_param",
    "nowrap",
    "parameter_overview",
    "pool",
    "tabulate",
    "traverse_util",
    *activation.__all__,
]
