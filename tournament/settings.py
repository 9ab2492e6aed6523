"""Settings for Spades Director, read from the environment (see README: "Running an event").

DEBUG is off unless ``DJANGO_DEBUG=true`` says otherwise (``make run`` and the test suite set
it): a forgotten variable never runs an event in debug mode, it refuses to start without
``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS`` instead. The database is ``db.sqlite3``
beside ``manage.py`` unless ``DATABASE_URL`` names another. A malformed value stops start-up
with a message naming the variable.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
import django
from django.core.exceptions import ImproperlyConfigured

from tournament.operations.errors import start_sentry
from tournament.operations.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def _env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    return [item.strip() for item in raw.split(",") if item.strip()] if raw else default


DEBUG = _env_bool("DJANGO_DEBUG", default=False)
# The demo's well-known director password is for a developer's machine only.
DEMO_ALLOWED = DEBUG

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false")
    # Only ever used on a developer's machine: DEBUG is on and the database is local.
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the host names the app is served under")
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# The address printed in table links and QR codes: what a phone on the venue's network types.
# Unset, links use the address the director's browser is using.
SPADES_BASE_URL = os.environ.get("SPADES_BASE_URL", "").rstrip("/")

# Templates hold a page and its fragments as named partials ({% partialdef %}): Django has them
# from 6.0 on; before that, django-template-partials adds the same tags.
_PARTIALS_PACKAGE = django.VERSION < (6, 0)
PARTIALS_APP = ["template_partials"] if _PARTIALS_PACKAGE else []
PARTIALS_TAGS = ["template_partials.templatetags.partials"] if _PARTIALS_PACKAGE else []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    *PARTIALS_APP,
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "health_check",
    "tournament",
    # The event formats (tournament.formats): one line a format.
    "tournament.formats.progressive",
    "tournament.formats.knockout",
    "tournament.formats.league",
    "tournament.formats.swiss",
    # Keying paper sheets at the desk (tournament.keying).
    "tournament.keying",
    # A club's seasons and its players' pages (tournament.seasons).
    "tournament.seasons",
    "tournament.review",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A club's event in the club's time zone and currency symbol (tournament.clubs.locale).
    "tournament.clubs.middleware.ClubLocaleMiddleware",
    "csp.middleware.CSPMiddleware",
    # A write that waited too long for its tournament's lock answers 503 (tournament.locking).
    "tournament.locking.BusyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the page that says when to retry.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["tournament.templatetags.money", *PARTIALS_TAGS],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=_env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
# A write waits this long for its tournament's lock, then gives up and is answered 503, which a
# phone sends again (tournament.locking).
LOCK_WAIT_SECONDS = 5
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Server-side binding lets psycopg prepare a statement the second time a connection runs it
    # (prepare_threshold): a save's statements are then planned once per connection, not once
    # per save. That shortens what a save does while it holds its tournament's lock by a quarter
    # (bench/table_load.py). Needs CONN_MAX_AGE, as the README's production recipe sets.
    DATABASES["default"]["OPTIONS"] = {
        "options": f"-c lock_timeout={LOCK_WAIT_SECONDS * 1000}",
        "server_side_binding": True,
        "prepare_threshold": 2,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Score entry from many phones at once. WAL lets readers run beside the one writer (a long
    # read no longer blocks a phone's save); synchronous=NORMAL is safe under WAL (a power cut
    # can lose the last commits, never corrupt the file). IMMEDIATE takes the write lock when a
    # transaction starts, so two writers queue (up to ``timeout`` seconds, then 503) instead of
    # deadlocking.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": LOCK_WAIT_SECONDS,
    }
    # Tests use a file too: an in-memory database shared between threads fails a waiting writer
    # at once ("table is locked") where a file waits, so only a file tests what production does.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
# Login throttling (director login and the admin's): five failures lock that account, and
# separately that address, for fifteen minutes.
AXES_FAILURE_LIMIT = _env_int("SPADES_LOGIN_FAILURES", 5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=_env_int("SPADES_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_LOCKOUT_CALLABLE = "tournament.access.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# The largest tournament export an import accepts. The largest event we support, 1,000 tables
# playing 8 rounds (32,000 hands), exports 25 MB (41 MB as exports were written before they
# were made compact); the rest is room for longer rounds.
SPADES_IMPORT_MAX_MB = _env_int("SPADES_IMPORT_MAX_MB", 48)

# The pages everyone watches (standings, projector, bracket, league table) are built again at most
# this often once the event changes (tournament.standings.snapshot).
SPADES_SNAPSHOT_SECONDS = _env_int("SPADES_SNAPSHOT_SECONDS", 5)

# Print jobs: a worker's lease on the job it renders lasts this long past its last renewal (the
# worker renews it every third of this while it renders); a job whose lease ran out, or queued this
# long with no task left to render it, is queued again for another worker.
# PDFs older than this many days are deleted (made again on demand).
SPADES_PRINT_LEASE_SECONDS = _env_int("SPADES_PRINT_LEASE_SECONDS", 60)
SPADES_PRINT_KEEP_DAYS = _env_int("SPADES_PRINT_KEEP_DAYS", 3)

# Backups (tournament.operations.backups, `manage.py backup`): written here; while a club has an
# event in play the worker writes the club's every SPADES_BACKUP_MINUTES (0: never); files older
# than SPADES_BACKUP_KEEP_DAYS are deleted, but never a club's newest.
SPADES_BACKUP_DIR = Path(os.environ.get("SPADES_BACKUP_DIR") or BASE_DIR / "backups")
SPADES_BACKUP_MINUTES = _env_int("SPADES_BACKUP_MINUTES", 15)
SPADES_BACKUP_KEEP_DAYS = _env_int("SPADES_BACKUP_KEEP_DAYS", 14)

# Background work runs in its own process (`manage.py db_worker`), queued in the database, so
# several app servers and several workers share one queue (tournament.printing.jobs).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def parse_email_url(url: str) -> dict:
    """Django's EMAIL_* settings from ``EMAIL_URL``: ``smtp://user:password@host:port`` (plain),
    ``smtp+tls://…`` (STARTTLS, port 587 unless given), ``smtp+ssl://…`` (port 465 unless given)
    or ``console://`` (mail printed to standard output, for trying it out)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    ports = {"smtp": 25, "smtp+tls": 587, "smtp+ssl": 465}
    if parts.scheme not in ports or not parts.hostname:
        raise ImproperlyConfigured(
            f"EMAIL_URL must look like smtp://user:password@host:port, smtp+tls://…, smtp+ssl://… or console://, "
            f"not {parts.scheme + '://…' if parts.scheme else repr(url)}"
        )
    try:
        port = parts.port or ports[parts.scheme]
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL's port must be a whole number") from None
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtp+ssl",
    }


# Email (invitations and password resets by email) only when EMAIL_URL names a server; unset, no
# page offers email and links are made and copied by hand (README: "People and accounts").
EMAIL_URL = os.environ.get("EMAIL_URL", "")
SPADES_EMAIL = bool(EMAIL_URL)
if SPADES_EMAIL:
    globals().update(parse_email_url(EMAIL_URL))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Spades Director <webmaster@localhost>")
# A password reset link (made by a superuser or an owner, or sent by email) works this long, once.
PASSWORD_RESET_TIMEOUT = _env_int("SPADES_RESET_LINK_HOURS", 72) * 3600

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
# Dates and times as every page and sheet shows them (tournament/locale_formats/en/formats.py).
FORMAT_MODULE_PATH = ["tournament.locale_formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Serve files straight from the apps' static folders while developing (and testing), so
# `make run` and `make test` need no collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
# WhiteNoise's own default, read here once: it looks a file up when asked for it while developing,
# instead of indexing every static file (the admin's thousand) each time the middleware starts,
# which every test client does (a quarter of a second each, half the suite's time).
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Backups (tournament.operations.backups), in SPADES_BACKUP_DIR below. They hold secrets (table
    # links; password hashes in a whole-database backup): readable by the app's own user alone.
    "backups": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": SPADES_BACKUP_DIR, "file_permissions_mode": 0o600, "directory_permissions_mode": 0o700},
    },
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Behind TLS (the default in production) cookies are secure and browsers are told to stay on
# HTTPS. A venue network served over plain HTTP sets DJANGO_HTTPS=false; see README.
HTTPS = _env_bool("DJANGO_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
# A load balancer probes /health/ over plain HTTP, behind the TLS it ends itself.
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = _env_int("DJANGO_HSTS_SECONDS", 31_536_000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if _env_bool("DJANGO_BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The throttle counts the address the proxy saw, not the proxy's own.
    AXES_IPWARE_PROXY_COUNT = 1
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# No inline script or style anywhere (static/js/app.js holds the page behaviour), so a name
# typed with markup in it can never run. Images: the app's own, and the QR codes' data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Server errors go to standard error (gunicorn's error log) with their tracebacks; so do the
# app's own warnings (a print job that failed, say) and refused requests (a rejected Host header).
# LOG_FORMAT=json writes each line as a JSON object, for a hosted service's log collector.
try:
    LOGGING = logging_config(os.environ.get("LOG_FORMAT") or "plain")
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None

# Error reports to Sentry when SENTRY_DSN names a project; nothing is sent anywhere otherwise.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    start_sentry(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT") or "production",
        release=os.environ.get("SENTRY_RELEASE") or None,
    )

# /health/ fails when a queued task (a print, a backup) has waited this long for a worker.
SPADES_TASK_BACKLOG_MINUTES = _env_int("SPADES_TASK_BACKLOG_MINUTES", 5)
