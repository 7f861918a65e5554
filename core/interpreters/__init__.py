"""The interpreters behind the transformations: jvp, partial evaluation/staging, transpose, batching."""
