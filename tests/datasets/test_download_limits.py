"""Download limits against a real HTTP server on 127.0.0.1: size caps, the overall deadline,
same-host redirects only; the published specs' sizes and https mirrors."""

import hashlib
import http.server
import threading
import time
from pathlib import Path

import pytest

from datasets import download, fashion_mnist, mnist
from datasets.download import download_file
from datasets.errors import DownloadDeadlineError, DownloadTooLargeError, RedirectRefusedError

REAL_OPEN_URL = download._open_url  # the conftest replaces it with an offline stub
PAYLOAD = bytes(range(256)) * 12
DIGEST = hashlib.sha256(PAYLOAD).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass

    def _send(self, code, headers=(), body=b""):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        port = self.server.server_address[1]
        if self.path == "/file.gz":
            self._send(200, [("Content-Length", str(len(PAYLOAD)))], PAYLOAD)
        elif self.path == "/same":
            self._send(302, [("Location", "/file.gz")])
        elif self.path == "/other":  # another host name for the same machine
            self._send(302, [("Location", f"http://localhost:{port}/file.gz")])
        elif self.path == "/unannounced":  # no Content-Length, more than published
            self._send(200, [("Connection", "close")], PAYLOAD + PAYLOAD)
        elif self.path == "/announced":
            self._send(200, [("Content-Length", str(10**12))])
        elif self.path == "/slow":
            self._send(200, [("Connection", "close")])
            for _ in range(40):
                self.wfile.write(PAYLOAD[:64])
                self.wfile.flush()
                time.sleep(0.05)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(download, "_open_url", REAL_OPEN_URL)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_and_same_host_redirect(server, tmp_path):
    for route in ("/file.gz", "/same"):
        dest = download_file(server + route, tmp_path / "f.gz", DIGEST, size=len(PAYLOAD))
        assert dest.read_bytes() == PAYLOAD


def test_redirect_to_another_host_is_refused(server, tmp_path):
    with pytest.raises(RedirectRefusedError, match="localhost.*not followed"):
        download_file(server + "/other", tmp_path / "f.gz", DIGEST)
    assert list(tmp_path.iterdir()) == []


def test_https_to_http_redirect_is_refused():
    handler = download._SameHostRedirects()

    class Request:
        full_url = "https://example.org/a.gz"

    with pytest.raises(RedirectRefusedError, match="plain http"):
        handler.redirect_request(Request(), None, 302, "Found", {}, "http://example.org/a.gz")


def test_more_bytes_than_published_are_cut_off(server, tmp_path):
    with pytest.raises(DownloadTooLargeError, match=f"expected {len(PAYLOAD)} bytes"):
        download_file(server + "/unannounced", tmp_path / "f.gz", DIGEST, size=len(PAYLOAD))
    assert list(tmp_path.iterdir()) == []


def test_announced_length_over_the_limit_is_refused_before_reading(server, tmp_path):
    with pytest.raises(DownloadTooLargeError, match="at least 1000000000000"):
        download_file(server + "/announced", tmp_path / "f.gz", DIGEST, size=len(PAYLOAD))
    with pytest.raises(DownloadTooLargeError, match=f"expected {download.MAX_DOWNLOAD_BYTES}"):
        download_file(server + "/announced", tmp_path / "f.gz", DIGEST)  # no published size


def test_overall_deadline(server, tmp_path, monkeypatch):
    monkeypatch.setattr(download, "DEADLINE_SECONDS", 0.5)
    start = time.monotonic()
    with pytest.raises(DownloadDeadlineError, match="longer than 0.5 s"):
        download_file(server + "/slow", tmp_path / "f.gz", DIGEST)
    assert time.monotonic() - start < 1.5  # each read returns what arrived; not 40 x 50 ms
    assert list(tmp_path.iterdir()) == []


def test_published_sizes_match_the_shipped_files_and_mirrors_use_https():
    shipped = Path(download.SHIPPED_DIR) / "mnist"
    for f in mnist.SPEC.files.values():
        assert (shipped / f.filename).stat().st_size == f.size
    for spec in (mnist.SPEC, fashion_mnist.SPEC):
        assert all(f.size for f in spec.files.values())
        assert spec.mirrors[0].startswith("https://")
