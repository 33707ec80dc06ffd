"""Test-only URL (enabled via BUGSINK["EXTRA_URLCONF_MODULES"] when BUGSINK_TEST_LOGIN=1):

    GET /__test__/login/?next=/issues/event/<event_id>/

logs the browser in as the first superuser and redirects to `next`, so a plain
`chromium --headless --screenshot=... URL` (which cannot set cookies) can render logged-in pages.
NEVER enable on a real instance."""
from django.contrib.auth import get_user_model, login
from django.http import HttpResponseRedirect
from django.urls import path
from django.utils.http import url_has_allowed_host_and_scheme

from bugsink.decorators import login_exempt


@login_exempt
def test_login(request):
    user = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    nxt = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts=None):
        nxt = "/"
    return HttpResponseRedirect(nxt)


urlpatterns = [path("__test__/login/", test_login)]
