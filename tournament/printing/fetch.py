"""What WeasyPrint may read while it lays out a PDF: the app's own static files and ``data:``
URLs, nothing else. Without this it reads any ``file://`` path and fetches any web address, so
one unescaped value in a template could embed ``db.sqlite3`` or the settings in a handout."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint.urls import URLFetcher


def static_file(url: str) -> Path | None:
    """The app's static file ``url`` names (a ``file://`` path inside a static folder, or the
    static URL resolved against the project folder), else None."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    for base in (settings.BASE_DIR, Path("/")):
        try:
            relative = "/" + str(path.relative_to(Path(base).resolve()))
        except ValueError:
            continue
        if relative.startswith(prefix):
            found = finders.find(relative[len(prefix) :])
            return Path(found).resolve() if found else None
    roots = [Path(root).resolve() for root in [*settings.STATICFILES_DIRS, settings.STATIC_ROOT]]
    return path if path.is_file() and any(path.is_relative_to(root) for root in roots) else None


class AppFilesOnly(URLFetcher):
    """A WeasyPrint fetcher that refuses every URL but ``data:`` and the app's static files."""

    def fetch(self, url: str, headers: dict | None = None) -> object:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = static_file(url)
        if path is None:
            raise ValueError(f"PDFs may use only the app's static files and data: URLs, not {url[:200]}")
        return super().fetch(path.as_uri(), headers)
