"""Run with DJANGO_SETTINGS_MODULE=bugsink_conf, PYTHONPATH=<dir of bugsink_conf.py>, BUGSINK_TMP/BUGSINK_PORT set.
Creates user + team + project (+ memberships, API token, logged-in session) and prints one JSON line."""
import json
import os

import django

django.setup()

from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.conf import settings  # noqa: E402

from teams.models import Team, TeamMembership, TeamRole  # noqa: E402
from projects.models import Project, ProjectMembership, ProjectRole  # noqa: E402
from bsmain.models import AuthToken  # noqa: E402

email = os.environ.get("BUGSINK_USER", "admin@example.org")
password = os.environ.get("BUGSINK_PASSWORD", "admin-password-123")
project_name = os.environ.get("BUGSINK_PROJECT", "crash-collector-test")

User = get_user_model()
user = User.objects.filter(username=email).first()
if user is None:
    user = User.objects.create_superuser(username=email, email=email, password=password)

team, _ = Team.objects.get_or_create(name="test-team")
TeamMembership.objects.get_or_create(team=team, user=user, defaults={"role": TeamRole.ADMIN, "accepted": True})

project = Project.objects.filter(name=project_name).first()
if project is None:
    # slug is unique; Project.save() would derive it from name if left empty
    project = Project.objects.create(
        team=team, name=project_name, slug=project_name,
        # default 10_000: beyond that older events are evicted (POST still 200)
        retention_max_event_count=int(os.environ.get("BUGSINK_RETENTION", 10_000_000)),
    )
ProjectMembership.objects.get_or_create(project=project, user=user,
                                        defaults={"role": ProjectRole.ADMIN, "accepted": True})

token = AuthToken.create_full_access(description="test harness")

# A logged-in session, usable as cookie `sessionid=<key>` by a headless browser (no login form needed)
s = SessionStore()
s[SESSION_KEY] = str(user.pk)
s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
s[HASH_SESSION_KEY] = user.get_session_auth_hash()
s.create()

print(json.dumps({
    "dsn": project.dsn,
    "project_id": project.id,
    "sentry_key": project.sentry_key.hex,
    "user": email,
    "password": password,
    "api_token": token.token,
    "session_cookie_name": settings.SESSION_COOKIE_NAME,
    "session_key": s.session_key,
}))
