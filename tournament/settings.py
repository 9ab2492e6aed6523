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
    "tournament",
    # The event formats (tournament.formats): one line a format.
    "tournament.formats.progressive",
    "tournament.formats.knockout",
    "tournament.formats.league",
    "tournament.formats.swiss",
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

# Print jobs: a rendering job silent this long is taken to have lost its process and is
# rendered again; PDFs older than this many days are deleted (made again on demand).
SPADES_PRINT_STALE_SECONDS = _env_int("SPADES_PRINT_STALE_SECONDS", 30)
SPADES_PRINT_KEEP_DAYS = _env_int("SPADES_PRINT_KEEP_DAYS", 3)

# Background work runs in its own process (`manage.py db_worker`), queued in the database, so
# several app servers and several workers share one queue (tournament.printing.jobs).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

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
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        # A request for a host name the app does not answer to (a misconfigured address, a scan).
        "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        "tournament": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}
