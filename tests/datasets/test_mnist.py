import numpy as np
import pytest

from datasets import download, fashion_mnist, mnist
from datasets.errors import DatasetNotFoundError

# Per-class counts recorded when the files were added (shared data README).
TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]


def test_shipped_mnist_loads_offline_with_the_published_contents():
    paths = download.find(mnist.SPEC)
    assert {p.parent for p in paths.values()} == {download.SHIPPED_DIR / "mnist"}
    data = mnist.load(download=False)
    assert data.train_images.shape == (60000, 28, 28) and data.train_images.dtype == np.uint8
    assert data.test_images.shape == (10000, 28, 28) and data.test_images.dtype == np.uint8
    assert data.train_labels.dtype == np.uint8 and data.test_labels.dtype == np.uint8
    assert np.bincount(data.train_labels).tolist() == TRAIN_COUNTS
    assert np.bincount(data.test_labels).tolist() == TEST_COUNTS
    assert data.train_images.min() == 0 and data.train_images.max() == 255
    assert data.train["image"] is data.train_images and data.test["label"] is data.test_labels


def test_fashion_mnist_offline_says_where_to_put_which_files(tmp_path):
    with pytest.raises(DatasetNotFoundError) as info:
        fashion_mnist.load(tmp_path)
    message = str(info.value)
    for name in ["train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", "NUMBAX_DATA_DIR"]:
        assert name in message
    assert str(tmp_path / "fashion-mnist") in message
    assert "fashion-mnist.s3-website.eu-central-1.amazonaws.com" in message
    assert len(fashion_mnist.CLASS_NAMES) == fashion_mnist.NUM_CLASSES == 10
