"""Images and sounds for TensorBoard summaries, encoded with the standard library.

`image_batch` normalizes an image argument as ``flax.metrics.tensorboard`` does (``[H, W]``,
``[H, W, 1|3]``, ``[K, H, W]`` or ``[K, H, W, 1|3]``; grey repeated to RGB) and converts
floats to uint8 as TensorFlow's ``convert_image_dtype(..., saturate=True)``: ``x * 255.5``
truncated into ``[0, 255]``. `encode_png` writes 8-bit RGB PNG with `zlib`; `encode_wav` writes
16-bit PCM WAV with `wave` (TensorFlow's ``encode_wav`` format). Neither PIL nor soundfile is
needed.
"""

from __future__ import annotations

import io
import struct
import wave
import zlib
from typing import Any

import numpy as np

__all__ = ["audio_batch", "encode_png", "encode_wav", "image_batch"]


def image_batch(image: Any) -> np.ndarray:
    """``image`` as ``uint8[K, H, W, 3]``.

    Args:
        image: ``[H, W]``, ``[H, W, 1]``, ``[H, W, 3]``, ``[K, H, W]``, ``[K, H, W, 1]`` or
            ``[K, H, W, 3]``; uint8, or floats in ``[0, 1]``.

    Returns:
        The images, RGB.

    Raises:
        ValueError: another shape.
    """
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[None, :, :, None]
    elif image.ndim == 3:
        image = image[None] if image.shape[-1] in (1, 3) else image[..., None]
    if image.ndim != 4 or image.shape[-1] not in (1, 3):
        raise ValueError(
            f"image of shape {image.shape}: give [H, W], [H, W, 1|3], [K, H, W] or [K, H, W, 1|3]"
        )
    if image.shape[-1] == 1:
        image = np.repeat(image, 3, axis=-1)
    if image.dtype != np.uint8:
        image = np.clip(image.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
    return image


def encode_png(rgb: np.ndarray) -> bytes:
    """An 8-bit RGB PNG of ``uint8[H, W, 3]`` (no filtering, zlib level 6)."""
    height, width, _ = rgb.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, -1)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit, RGB
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)),
            chunk(b"IEND", b""),
        ]
    )


def audio_batch(audio: Any) -> np.ndarray:
    """``audio`` as ``float32[K, frames, channels]`` clipped to ``[-1, 1]`` (Flax's layout).

    Raises:
        ValueError: ``audio`` is not 3-dimensional.
    """
    audio = np.clip(np.asarray(audio, dtype=np.float32), -1, 1)
    if audio.ndim != 3:
        raise ValueError(f"audio of shape {audio.shape}: give [clips, frames, channels]")
    return audio


def encode_wav(clip: np.ndarray, sample_rate: int) -> bytes:
    """16-bit PCM WAV of ``float[frames, channels]`` in ``[-1, 1]``."""
    pcm = np.round(clip * 32767).astype("<i2")
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(clip.shape[1])
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.tobytes())
    return out.getvalue()
