"""What `record_answers.py` (on JAX) and the tests (`checks.py`, on numbax) share: the
programs, their answer files and the summary of a program's result that the answers hold."""

from pathlib import Path

import numpy as np

PROGRAMS = Path(__file__).resolve().parent / "programs"
ANSWERS = Path(__file__).resolve().parent / "answers"


def program_names() -> list[str]:
    """The programs' names (file stems), sorted."""
    return sorted(p.stem for p in PROGRAMS.glob("*.py"))


def answer_path(name: str) -> Path:
    """Where JAX's recorded summary of program `name` is (one JSON file per program)."""
    return ANSWERS / f"{name}.json"


def answer_names() -> list[str]:
    """The programs that have recorded answers, sorted."""
    return sorted(p.stem for p in ANSWERS.glob("*.json"))


# Flax model programs, one test file per group (under `--dist loadfile` each program runs as a
# unit of its own: tests/xdist_schedule.py)
MODEL_GROUPS = {
    "language_models": (
        "bert_packed_mlm",
        "bilstm_classifier",
        "dpo_preference",
        "mamba_selective_scan",
        "mixture_of_experts",
        "rope_gqa_decoder",
        "seq2seq_lstm",
        "transformer_lm",
        "transformer_tagger",
        "transformer_translation",
    ),
    "vision_models": (
        "cnn_image_training",
        "convnext_efficientnet",
        "diffusion_unet",
        "gan_spectral_norm",
        "image_augmentation",
        "mixed_precision_training",
        "mlp_mixer",
        "pixel_mixture_model",
        "resnet_cross_replica",
        "simclr_contrastive",
        "spatial_transformer",
        "variational_autoencoder",
        "vit_classifier",
        "vq_vae_codebook",
    ),
    "agents_and_flows": (
        "actor_critic_ppo",
        "dqn_replay",
        "graph_network_molecules",
        "maml_sinusoid",
        "realnvp_flow",
        "score_matching_langevin",
        "sparse_gcn",
    ),
    "sequence_and_field_models": (
        "conformer_audio",
        "fourier_neural_operator",
        "gpt2_attention_variants",
        "gru_ctc_recognizer",
        "lru_state_space",
        "nbeats_forecasting",
        "nerf_positional",
        "perceiver_cross_attention",
        "wavenet_dilated",
    ),
    "densities_and_fields": (
        "gumbel_categorical_vae",
        "kalman_smoother",
        "masked_autoregressive_flow",
        "mixture_density_network",
        "neural_ode_rk4",
        "pinn_burgers",
        "sinkhorn_transport",
        "taylor_mode_regularization",
    ),
    "training_methods": (
        "clip_dual_encoder",
        "evolution_strategies",
        "hamiltonian_nn",
        "influence_functions",
        "quantization_aware_training",
        "svgd_bayesian_nn",
    ),
    "model_families": (
        "capsule_routing",
        "mobilenet_v2",
        "performer_linear_attention",
        "set_transformer",
        "swin_window_attention",
        "t5_beam_search",
        "unet_segmentation",
    ),
    "structured_models": (
        "crf_sequence_tagger",
        "decision_transformer",
        "neural_cellular_automata",
        "pointer_network",
        "sac_td3_control",
        "siren_hypernetwork",
        "word2vec_negative_sampling",
    ),
    # JAX-only scientific programs (session 36)
    "scientific_computing": (
        "black_scholes_greeks",
        "hmm_baum_welch",
        "ilqr_pendulum",
        "ising_potts_mcmc",
        "lennard_jones_md",
        "levenberg_marquardt",
        "linear_dynamics_lyapunov",
        "matrix_factorization",
        "neural_tangent_kernel",
        "particle_filter",
        "polynomial_quadrature",
        "randomized_svd_pca",
        "sdf_ray_marching",
        "spectral_heat_poisson",
    ),
    # JAX-only programs of array APIs no other program reached (session 37)
    "array_computing": (
        "bit_tricks_hashing",
        "dtype_promotion_precision",
        "einsum_tensor_networks",
        "fft_spectral_corners",
        "initializers_samplers",
        "lax_linalg_factorizations",
        "lax_primitives_tour",
        "linalg_norms_conditioning",
        "numpy_lax_math_corners",
        "rigid_motion_signals",
        "scatter_gather_indexing",
        "scipy_signal_ndimage",
        "sets_sorting_statistics",
        "shapes_without_compute",
        "tabular_preprocessing",
        "vmap_axes_collectives",
        "window_reductions",
    ),
}


def program_group(name: str) -> str:
    """The test file that checks program `name`: "linen" (Flax's linen guides), "optax"
    (Optax's examples), a `MODEL_GROUPS` group (Flax models), or "examples" (the rest: JAX's
    and Flax's examples and JAX's documentation)."""
    group = next((g for g, names in MODEL_GROUPS.items() if name in names), None)
    if group is not None:
        return group
    return next((g for g in ("linen", "optax") if name.startswith(f"{g}_")), "examples")


def summary(value):
    """A JSON-able summary of `run()`'s result: containers kept, strings, bools and ints as
    they are, an array as its dtype, shape, first eight values and float64 sum."""
    if isinstance(value, dict):
        return {str(k): summary(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [summary(v) for v in value]
    if isinstance(value, (str, bool)) or value is None:
        return value
    a = np.asarray(value)
    flat = np.asarray(a, np.float64).ravel()
    return {"dtype": str(a.dtype), "shape": list(a.shape), "head": flat[:8].tolist(),
            "sum": float(flat.sum())}  # fmt: skip
