# Throwaway Bugsink settings for tests. Everything configurable via env vars:
#   BUGSINK_TMP       (required) dir for SQLite DBs, ingestion dir, snappea wakeup dir
#   BUGSINK_PORT      port used in BASE_URL (and so in the DSN)          [8000]
#   BUGSINK_EAGER     "1" = digest inside the ingest request (no snappea) [1]
#   BUGSINK_VALIDATE  none | warn | strict                               [strict]
#   BUGSINK_TEST_LOGIN "1" = add /__test__/login/?next=URL (auto-login as superuser, for headless screenshots) [1]
#   BUGSINK_EXTRA     JSON object merged into BUGSINK (e.g. to re-enable small quotas in a test)
import json
import os

from bugsink.settings.default import *  # noqa
from bugsink.settings.default import DATABASES, LOGGING

_D = os.environ["BUGSINK_TMP"]
_PORT = os.environ.get("BUGSINK_PORT", "8000")

SECRET_KEY = "throwaway-test-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"
DEBUG = False
ALLOWED_HOSTS = ["*"]
TIME_ZONE = "UTC"

DATABASES["default"]["NAME"] = os.path.join(_D, "db.sqlite3")
DATABASES["snappea"]["NAME"] = os.path.join(_D, "snappea.sqlite3")
# SQLite busy_timeout (default 5 s). In eager mode there is no snappea semaphore, so concurrent POSTs race for
# BEGIN IMMEDIATE; with 8 concurrent senders one request in 20k hit "database is locked" (HTTP 500) at 5 s.
DATABASES["default"]["OPTIONS"]["timeout"] = 60
DATABASES["default"]["OPTIONS"]["query_timeout"] = 60  # bugsink's per-query timeout (default 5 s)

EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"

SNAPPEA = {
    "TASK_ALWAYS_EAGER": os.environ.get("BUGSINK_EAGER", "1") == "1",
    "NUM_WORKERS": 2,
    "PID_FILE": None,
    "WAKEUP_CALLS_DIR": os.path.join(_D, "wakeup"),
}

_BIG = 10 ** 9
BUGSINK = {
    "BASE_URL": f"http://127.0.0.1:{_PORT}",  # DSNs are built from this
    "PHONEHOME": False,  # no internet
    "VALIDATE_ON_DIGEST": os.environ.get("BUGSINK_VALIDATE", "strict"),
    "INGEST_STORE_BASE_DIR": os.path.join(_D, "ingestion"),  # default is the shared /tmp/bugsink/ingestion

    # ingest quotas (defaults 1_000 / 5 min, 5_000 / h, 1M / month, both per project and installation-wide)
    "MAX_EVENTS_PER_PROJECT_PER_5_MINUTES": _BIG,
    "MAX_EVENTS_PER_PROJECT_PER_HOUR": _BIG,
    "MAX_EVENTS_PER_PROJECT_PER_MONTH": _BIG,
    "MAX_EVENTS_PER_5_MINUTES": _BIG,
    "MAX_EVENTS_PER_HOUR": _BIG,
    "MAX_EVENTS_PER_MONTH": _BIG,

    # global retention caps (None = no cap; already the default). NOTE: the per-project cap is a DB field,
    # Project.retention_max_event_count (default 10_000), set in bugsink_harness.setup_objects().
    "MAX_RETENTION_PER_PROJECT_EVENT_COUNT": None,
    "MAX_RETENTION_EVENT_COUNT": None,
}

if os.environ.get("BUGSINK_TEST_LOGIN", "1") == "1":
    BUGSINK["EXTRA_URLCONF_MODULES"] = ["bugsink_test_urls"]  # GET /__test__/login/?next=... (see that file)

BUGSINK.update(json.loads(os.environ.get("BUGSINK_EXTRA", "{}")))
