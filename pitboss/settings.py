"""Pitboss settings, read from the environment. The defaults are safe for development and tests.

DATABASE_URL        dj-database-url URL; default SQLite file db.sqlite3 at the repo root
SECRET_KEY          default: a development key (manage.py check --deploy flags it)
DEBUG               true/false; default false
HTTPS               true when served over HTTPS (behind a proxy setting X-Forwarded-Proto):
                    redirects to HTTPS, secure cookies, HSTS; default false
ALLOWED_HOSTS       comma-separated; default 127.0.0.1,localhost
CELERY_BROKER_URL   default empty: tasks run in-process (eager)
TOKEN_TTL_DAYS      days an API token is accepted after it is issued; default 90
MAX_REQUEST_BYTES   largest request body accepted (else a JSON 413); default 1048576 (1 MiB)
WRITE_RATE          writes (POST, PUT, PATCH, DELETE) allowed per user, or per address when
                    anonymous, as DRF writes a rate: "120/minute" (the default), "10/second";
                    empty: unthrottled
CACHE_URL           the cache shared by all server processes (the write throttle counts there):
                    redis://host:port/db (or rediss://); default empty: each process's own memory
LOGIN_FAILURE_LIMIT failed logins, per username and per address, before logins are refused;
                    default 5
LOGIN_COOLOFF_MINUTES  how long a locked-out username or address is refused; default 15
LOG_LEVEL           the least level of log record written to stderr; default WARNING
PITBOSS_URL         the address links in e-mails and webhooks point to; default
                    http://127.0.0.1:8000
EMAIL_HOST          an SMTP server for the watch's e-mails (EMAIL_PORT, EMAIL_HOST_USER,
                    EMAIL_HOST_PASSWORD, EMAIL_USE_TLS beside it); default empty: printed to
                    the console
EMAIL_FILE_PATH     a directory to write those e-mails to as files instead; default empty
DEFAULT_FROM_EMAIL  the sender of those e-mails; default pitboss@localhost
WEBHOOK_RETRIES     attempts after a webhook's first fails; default 5
WEBHOOK_BACKOFF     seconds before the first retry, doubled for each after; default 30
WEBHOOK_PRIVATE_ADDRESSES  true to let webhooks go to loopback, private and link-local
                    addresses (a receiver on the server's own network); default false
BACKGROUND_TASKS    with no broker: true to run a job's tasks in a worker thread of the server,
                    so the request that starts a long job returns at once and its page shows
                    its progress; false to run them in the request; default true
IMPACT_INLINE_FLOORS  the most floors an impact is judged over within its request; more are
                    judged as a job with its progress shown; default 200
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envstr(name: str, default: str | None = None) -> str:
    """The variable's value, or `default`; raises ImproperlyConfigured if unset with no default."""
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"Set the environment variable {name}.")
    return value


def envbool(name: str, default: bool) -> bool:
    """The variable as a boolean (1/0, true/false, yes/no, on/off); else ImproperlyConfigured."""
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use true or false.")


def envint(name: str, default: int, *, minimum: int = 0) -> int:
    """The variable as an integer of at least `minimum`; else ImproperlyConfigured."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer of at least {minimum}.")
    return number


def envrate(name: str, default: str) -> str:
    """The variable as a DRF throttle rate ("120/minute"), or "" for none."""
    value = envstr(name, default).strip()
    if value and not re.fullmatch(r"\d+/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate such as 120/minute.")
    return value


# The "django-insecure-" prefix makes `manage.py check --deploy` warn if it is ever deployed.
SECRET_KEY = envstr("SECRET_KEY", "django-insecure-dev-only-key-set-SECRET_KEY-in-production")
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = [h.strip() for h in envstr("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")]

# Security headers on every response (SecurityMiddleware, XFrameOptionsMiddleware).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Served over HTTPS (production): HTTP redirects to HTTPS, cookies only over HTTPS, HSTS for a
# year. The proxy in front must set X-Forwarded-Proto (and drop a client's own).
HTTPS = envbool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_htmx",
    "axes",
    "jurisdictions",
    "regs",
    "variants",
    "compliance",
]

MIDDLEWARE = [
    # First: an id for every request (X-Request-ID, the log), and the API's JSON 500 for any
    # exception under /api/, rendering included (pitboss/middleware.py).
    "pitboss.middleware.RequestIdMiddleware",
    # A body over the limit is refused before anything reads it.
    "pitboss.middleware.RequestSizeLimitMiddleware",
    # A body that did not arrive whole (a client too slow): 408, not 500.
    "pitboss.middleware.UnreadableBodyMiddleware",
    # A 404 under /api/ in JSON, DEBUG on or off.
    "pitboss.middleware.ApiNotFoundMiddleware",
    # A query parameter or form field that is not text (pitboss/text.py) is a 400 naming it.
    "pitboss.middleware.TextBoundaryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The database unreachable: 503 with Retry-After, never a 500 (pitboss/faults.py).
    "pitboss.faults.DatabaseUnavailableMiddleware",
    # Static files (the stylesheet, htmx, Swagger UI) served by the app itself with DEBUG off.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A visitor's read of the knowledge base, served whole while it is unchanged (kbcache.py).
    "pitboss.kbcache.ReadCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Records who made each knowledge-base edit (record time).
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last: a login refused by the lockout answers jurisdictions.web.login_locked_out (django-axes).
    "axes.middleware.AxesMiddleware",
]

# Each record with the id of the request being served (pitboss.logs.RequestIdFilter), the
# id an API server error also answers with; records of LOG_LEVEL (default WARNING) and above go
# to stderr, Django's own (django.request: each 4xx and 5xx) included.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "pitboss.logs.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["stderr"], "level": envstr("LOG_LEVEL", "WARNING")},
}

ROOT_URLCONF = "pitboss.urls"
WSGI_APPLICATION = "pitboss.wsgi.application"

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
                "jurisdictions.web.navigation",
            ],
        },
    },
]

try:
    DATABASES = {
        "default": dj_database_url.parse(
            envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
        )
    }
except ValueError as e:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {e}") from e
# Connections kept between requests for CONN_MAX_AGE seconds (`make serve` keeps them 60 s), and
# tested before a request uses one, so a database restart costs one request nothing.
DATABASES["default"]["CONN_MAX_AGE"] = int(envstr("CONN_MAX_AGE", "0"))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Celery workers write to the same file: a transaction takes the write lock when it begins
    # and a second writer waits for it, rather than failing to upgrade a read lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 30}
    )
    # The test database is a file, not memory, so that a Celery worker process can share it
    # (tests/compliance/test_simulation_worker.py). The test run creates and deletes it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"pitboss-test-{os.getpid()}.sqlite3")
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "pitboss" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed copies by collectstatic; no hashed names, so pages render before collectstatic.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Failed logins (the login page, the admin's, POST /api/v1/auth/token/) are counted by django-axes
# per username and per address: after LOGIN_FAILURE_LIMIT (5) failures, that username, or that
# address, is refused for LOGIN_COOLOFF_MINUTES (15) minutes, the right password too (429, the
# login page saying why; JSON `locked_out` under /api/). A success clears the count. An admin
# lifts a lock at once: `manage.py axes_reset` (all), `axes_reset_username NAME`, `axes_reset_ip
# ADDRESS`. The address is REMOTE_ADDR: behind a proxy, every login comes from the proxy's.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before checking it
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = dt.timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "jurisdictions.web.login_locked_out"
AXES_VERBOSE = False

# Web pages: officers and vendors log in with the same accounts the API uses.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# API tokens are accepted for this many days after they are issued (jurisdictions.tokens).
TOKEN_TTL_DAYS = envint("TOKEN_TTL_DAYS", 90, minimum=1)
# The largest request body: a larger one is a JSON 413 (pitboss.middleware), before any parsing.
MAX_REQUEST_BYTES = envint("MAX_REQUEST_BYTES", 1024 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
# Writes per user (or address) and period (pitboss.throttling.WriteRateThrottle); "" for none.
# Counted in the default cache (CACHES below): several server processes need CACHE_URL.
WRITE_RATE = envrate("WRITE_RATE", "120/minute")


def envcache(name: str) -> dict[str, str]:
    """The default cache from a URL in the variable: Redis for redis:// or rediss://, this
    process's memory when unset or empty; else ImproperlyConfigured."""
    url = envstr(name, "").strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.split("://", 1)[0] not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"{name}={url!r} is not a redis:// or rediss:// URL.")
    return {"BACKEND": "pitboss.cache.RedisCache", "LOCATION": url}


# One cache for every server process when CACHE_URL names a Redis (`make serve`, `make soak`),
# so a user's writes are counted once whichever process answers; else per process.
CACHES = {"default": envcache("CACHE_URL")}

REST_FRAMEWORK = {
    # Token first, so an anonymous write gets 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "jurisdictions.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.DjangoModelPermissionsOrAnonReadOnly",
    ],
    "DEFAULT_THROTTLE_CLASSES": ["pitboss.throttling.WriteRateThrottle"],
    # DRF's, with a JSON nesting limit (pitboss.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "pitboss.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # DRF's JSON renderer, a stored lone surrogate written as U+FFFD (pitboss/renderers.py).
    "DEFAULT_RENDERER_CLASSES": [
        "pitboss.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "pitboss.api.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pitboss.api.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pitboss API",
    "DESCRIPTION": "Casino blackjack rules as of any date: jurisdictions, provisions, wagers, "
    "paytables, and checks of table configurations.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc are served from drf-spectacular-sidecar, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two fields called status with other choices (a run's, a job's, a decision's): each enum
    # named, not left to drf-spectacular's guess (its warning W001 fails the deploy check).
    "ENUM_NAME_OVERRIDES": {
        "RunStatusEnum": "compliance.models.ValidationRun.Status",
        "JobStatusEnum": "compliance.models.ChunkedJob.Status",
        "DecisionStatusEnum": [("approved", "approved"), ("rejected", "rejected")],
    },
    # drf-spectacular's default hook, then the error shape on every operation (pitboss/api.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pitboss.api.document_errors",
    ],
}

# dumpdata/loaddata (and backups) in JSON with times to the microsecond (pitboss/serializers.py).
SERIALIZATION_MODULES = {"json": "pitboss.serializers"}

# Seconds `manage.py ingest` may spend reading one source file before refusing it.
INGEST_TIME_BUDGET = float(envstr("INGEST_TIME_BUDGET", "120"))

# The watch (compliance/watch.py): links in what it sends, its e-mail, its webhooks.
PITBOSS_URL = envstr("PITBOSS_URL", "http://127.0.0.1:8000").rstrip("/")
EMAIL_HOST = envstr("EMAIL_HOST", "")
EMAIL_FILE_PATH = envstr("EMAIL_FILE_PATH", "")
if EMAIL_FILE_PATH:  # each message a file in that directory (a worker's, for a test to read)
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
elif EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", 25, minimum=1)
    EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "pitboss@localhost")
WEBHOOK_RETRIES = envint("WEBHOOK_RETRIES", 5)
WEBHOOK_BACKOFF = float(envstr("WEBHOOK_BACKOFF", "30"))
# A vendor's URL must not make the server POST into its own network unless this says so.
WEBHOOK_PRIVATE_ADDRESSES = envbool("WEBHOOK_PRIVATE_ADDRESSES", False)
# Seconds a webhook's receiver has to answer.
WEBHOOK_TIMEOUT = 10
# Beyond this many floors, an impact is a job (compliance/impact_jobs.py).
IMPACT_INLINE_FLOORS = envint("IMPACT_INLINE_FLOORS", 200, minimum=0)

CELERY_BROKER_URL = envstr("CELERY_BROKER_URL", "")
# No broker: a job's tasks run in a worker thread of the server (pitboss/background.py).
BACKGROUND_TASKS = envbool("BACKGROUND_TASKS", True)
# No broker: tasks run in-process, and their errors surface where they were called.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A simulation chunk runs for seconds: a worker takes one task at a time.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A chunk is acknowledged when it has finished, not when a worker takes it: a worker that dies
# (killed, out of memory, the machine lost) leaves it to be delivered again, and a chunk's sums
# are added to its job once (compliance/simulations.py), so the job ends with the same result.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Redis gives an unacknowledged chunk of a lost worker to another after this many seconds; longer
# than a chunk takes (a chunk delivered twice only costs its work again).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(envstr("CELERY_VISIBILITY_TIMEOUT", "600")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
# The broker down: a request that queues a job is refused within seconds (503), not held.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
