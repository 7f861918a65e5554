"""Differentiable rendering of a signed-distance scene by sphere tracing, and fitting the
scene's parameters to a target image through the renderer (ours, in the style of the
differentiable-SDF notebooks written with `jax.vmap` and `jax.grad`).

The scene is a sphere smoothly unioned (polynomial smooth minimum) with a rounded box, over a
ground plane. Rays from a pinhole camera are marched a fixed number of steps in a
`lax.fori_loop`, the step clipped by `jnp.clip`; a hit mask comes from the final distance.
Normals are `jax.grad` of the SDF wrt the point (checked unit length, and against central
differences), shading is Lambertian with a soft shadow march and the silhouette is a
`jax.nn.sigmoid` of the distance. The image is a `vmap` over pixel rays (a `jnp.meshgrid` of
pixel centres). The sphere's centre and radius are fitted to a target rendered with other
values by gradient descent through the marcher (reverse mode through `fori_loop`), and the
gradient is compared with central differences."""

import jax
import jax.numpy as jnp

RES = 10
STEPS = 24


def smooth_min(a, b, k=0.3):
    h = jnp.clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b * (1 - h) + a * h - k * h * (1 - h)


def sd_box(p, half, radius):
    q = jnp.abs(p) - half
    outside = jnp.sqrt(
        jnp.sum(jnp.maximum(q, 0.0) ** 2) + 1e-12
    )  # a norm with a finite derivative at 0
    return outside + jnp.minimum(jnp.max(q), 0.0) - radius


def scene(p, params):
    sphere = jnp.linalg.norm(p - params["center"]) - params["radius"]
    box = sd_box(p - jnp.array([0.6, -0.2, 0.3]), jnp.array([0.3, 0.3, 0.3]), 0.05)
    ground = p[1] + 0.6
    return jnp.minimum(smooth_min(sphere, box), ground)


def march(origin, direction, params):
    def body(_, t):
        d = scene(origin + t * direction, params)
        return t + jnp.clip(d, 0.0, 0.5)

    t = jax.lax.fori_loop(0, STEPS, body, 0.0)
    return t, scene(origin + t * direction, params)


def normal(p, params):
    g = jax.grad(scene)(p, params)
    return g / jnp.linalg.norm(g)


def soft_shadow(p, light, params, k=8.0):
    def body(i, state):
        t, shade = state
        d = scene(p + t * light, params)
        return t + jnp.clip(d, 0.02, 0.3), jnp.minimum(shade, k * d / t)

    return jnp.clip(jax.lax.fori_loop(0, 12, body, (0.05, 1.0))[1], 0.0, 1.0)


def shade(origin, direction, params):
    t, d = march(origin, direction, params)
    p = origin + t * direction
    light = jnp.array([0.5, 0.8, -0.4]) / jnp.linalg.norm(jnp.array([0.5, 0.8, -0.4]))
    diffuse = jnp.maximum(jnp.dot(normal(p, params), light), 0.0) * soft_shadow(p, light, params)
    coverage = jax.nn.sigmoid(-d / 0.01)
    return coverage * (0.1 + 0.9 * diffuse), t


def camera_rays():
    u = (jnp.arange(RES) + 0.5) / RES * 2 - 1
    X, Y = jnp.meshgrid(u, -u)
    dirs = jnp.stack([X, Y, jnp.full_like(X, 1.5)], -1)
    dirs = dirs / jnp.linalg.norm(dirs, axis=-1, keepdims=True)
    origin = jnp.array([0.0, 0.0, -3.0])
    return origin, dirs.reshape(-1, 3)


def render(params):
    origin, dirs = camera_rays()
    colour, depth = jax.vmap(shade, in_axes=(None, 0, None))(origin, dirs, params)
    return colour.reshape(RES, RES), depth.reshape(RES, RES)


def run():
    out = {}
    params = {"center": jnp.array([-0.3, 0.0, 0.0]), "radius": jnp.array(0.5)}
    image, depth = render(params)
    out["render"] = [image[::3], depth[5], image.mean(), (depth < 5.0).sum()]

    p = jnp.array([0.1, 0.2, -0.4])
    n = normal(p, params)
    eps = 1e-2
    central = jnp.stack(
        [(scene(p + eps * e, params) - scene(p - eps * e, params)) / (2 * eps) for e in jnp.eye(3)]
    )
    out["normal"] = [
        n,
        jnp.abs(jnp.linalg.norm(n) - 1.0) < 1e-5,
        jnp.abs(central / jnp.linalg.norm(central) - n).max() < 1e-2,
    ]
    out["smooth_min"] = [
        smooth_min(jnp.array([0.0, 0.1, 1.0]), jnp.array([0.0, 0.0, 0.0])),
        sd_box(p, jnp.ones(3) * 0.3, 0.05),
    ]

    target, _ = render({"center": jnp.array([-0.2, 0.1, 0.0]), "radius": jnp.array(0.55)})

    def loss(params):
        return jnp.mean((render(params)[0] - target) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    shift = {"center": jnp.array([1e-3, 0.0, 0.0]), "radius": jnp.array(0.0)}
    up = loss(jax.tree.map(jnp.add, params, shift))
    down = loss(jax.tree.map(jnp.subtract, params, shift))
    central = (up - down) / 2e-3
    out["gradient"] = [
        value,
        grads,
        jnp.abs(central - grads["center"][0]) < 1e-2 * jnp.abs(central),
    ]

    step = jax.jit(lambda p: jax.tree.map(lambda a, g: a - 0.5 * g, p, jax.grad(loss)(p)))
    history = []
    for _ in range(3):
        params = step(params)
        history.append(loss(params))
    out["fit"] = [jnp.stack(history), params]
    return out
