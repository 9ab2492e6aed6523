"""A club's own pages: its settings, its people and their invitations, reset links; joining by an
invitation's link; the superuser's list of accounts."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import access
from tournament.clubs import services
from tournament.clubs.accounts import email_on, reset_path, reset_tokens, send_invitation, why_not_reset
from tournament.clubs.forms import ClubSettingsForm, InvitationForm, RoleForm, SignUpForm
from tournament.models import Club, ClubMember, Invitation
from tournament.models.clubs import token_digest
from tournament.play.links import base_url

Role = ClubMember.Role
OWNER_ONLY = "Only the club's owner manages its people and settings."


def club_page(*roles: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A club's page, for a logged-in member of the club in one of ``roles`` (a superuser counts
    as its owner): anyone not of the club gets 404, as if it did not exist; a member of another
    role 403. The answer is never cached: it lists people, and may show a link that opens an account."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
            role = access.club_role(request.user, club_id)
            if role is None:
                raise Http404("No such club.")
            if role not in roles:
                raise PermissionDenied(
                    OWNER_ONLY if roles == (Role.OWNER,) else "This page is for the club's directors."
                )
            request.club_role = role
            response = view(request, club_id=club_id, **kwargs)
            patch_cache_control(response, private=True, no_store=True)
            return response

        return wrapper

    return decorate


def _link(request: HttpRequest, path: str) -> str:
    return base_url(request) + path


def _club_settings(club: Club) -> dict[str, Any]:
    """The club's settings as its settings form shows them: each field is the club's column of that name."""
    return {name: getattr(club, name) for name in ClubSettingsForm.base_fields}


def _render_club(request: HttpRequest, club: Club, *, status: int = 200, **forms: Any) -> HttpResponse:
    """The club page: settings and invitations for its owner, its people for owner and directors."""
    owner = request.club_role == Role.OWNER
    context = {
        "club": club,
        "owner": owner,
        "members": club.members.select_related("user").order_by("role", "user__username"),
        "settings_form": forms.get("settings_form") or ClubSettingsForm(initial=_club_settings(club)),
        "invitation_form": forms.get("invitation_form") or InvitationForm(email=email_on()),
        "invitations": club.invitations.filter(used_at__isnull=True).order_by("expires_at") if owner else [],
        "problem": forms.get("problem"),
    }
    return render(request, "director/club.html", context, status=status)


@login_required
@require_GET
def clubs(request: HttpRequest) -> HttpResponse:
    """The clubs the user belongs to, with their role in each."""
    memberships = ClubMember.objects.filter(user=request.user).select_related("club").order_by("club__name")
    others = Club.objects.exclude(members__user=request.user) if request.user.is_superuser else []
    return render(request, "director/clubs.html", {"memberships": memberships, "others": others})


@club_page(Role.OWNER, Role.DIRECTOR)
@require_http_methods(["GET", "POST"])
def club(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's page; its settings form posts here (the owner's only)."""
    club = get_object_or_404(Club, pk=club_id)
    if request.method == "GET":
        return _render_club(request, club)
    if request.club_role != Role.OWNER:
        raise PermissionDenied(OWNER_ONLY)
    form = ClubSettingsForm(request.POST)
    if not form.is_valid():
        return _render_club(request, club, settings_form=form, status=422)
    services.update_club(club_id=club.pk, **form.cleaned_data)
    messages.success(request, "The club's settings are saved.")
    return redirect("director:club", club.pk)


def _club_and_member(club_id: int, member_id: int) -> tuple[Club, ClubMember]:
    """The club and one of its members (with the account), or 404 for either."""
    club = get_object_or_404(Club, pk=club_id)
    return club, get_object_or_404(ClubMember.objects.select_related("user"), club=club, pk=member_id)


@club_page(Role.OWNER)
@require_POST
def club_member(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """Change a member's role; "owner" hands them the club's ownership."""
    club, member = _club_and_member(club_id, member_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _render_club(request, club, problem=f"Role: {form.errors['role'][0]}", status=422)
    try:
        services.change_role(club_id=club.pk, member_id=member.pk, role=form.cleaned_data["role"])
    except ValidationError as error:
        return _render_club(request, club, problem=f"{member.user}: {error.messages[0]}", status=422)
    role = "the owner" if form.cleaned_data["role"] == Role.OWNER else f"a {form.cleaned_data['role']}"
    messages.success(request, f"{member.user} is now {role} of {club}.")
    return redirect("director:club", club.pk)


@club_page(Role.OWNER)
@require_POST
def club_member_remove(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """Take a member out of the club (their account stays; they no longer reach its events)."""
    club, member = _club_and_member(club_id, member_id)
    try:
        services.remove_member(club_id=club.pk, member_id=member.pk)
    except ValidationError as error:
        return _render_club(request, club, problem=f"{member.user}: {error.messages[0]}", status=422)
    messages.success(request, f"{member.user} is no longer a member of {club}.")
    return redirect("director:club", club.pk)


@club_page(Role.OWNER)
@require_POST
def club_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new invitation: its link is shown on the answer, once (only its digest is kept)."""
    club = get_object_or_404(Club, pk=club_id)
    form = InvitationForm(request.POST, email=email_on())
    if not form.is_valid():
        return _render_club(request, club, invitation_form=form, status=422)
    invitation, token = services.invite(
        club_id=club.pk, role=form.cleaned_data["role"], by=request.user, days=form.cleaned_data["days"]
    )
    link = _link(request, reverse("join", args=[token]))
    sent_to = form.cleaned_data.get("email")
    if sent_to:
        send_invitation(invitation=invitation, link=link, to=sent_to)
    context = {"club": club, "invitation": invitation, "link": link, "sent_to": sent_to}
    return render(request, "director/club_invitation.html", context)


@club_page(Role.OWNER)
@require_POST
def club_invitation_revoke(request: HttpRequest, club_id: int, invitation_id: int) -> HttpResponse:
    """Revoke an open invitation: its link then opens nothing."""
    club = get_object_or_404(Club, pk=club_id)
    try:
        services.revoke(club_id=club.pk, invitation_id=invitation_id)
    except Invitation.DoesNotExist:
        raise Http404("No such open invitation.") from None
    messages.success(request, "The invitation is revoked: its link opens nothing now.")
    return redirect("director:club", club.pk)


@club_page(Role.OWNER)
@require_POST
def club_reset_link(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """A password reset link for a member whose account is the club's alone (any, for a superuser)."""
    club, member = _club_and_member(club_id, member_id)
    refusal = why_not_reset(by=request.user, user=member.user, club_id=club.pk)
    if refusal:
        return _render_club(request, club, problem=refusal, status=403)
    return _show_reset_link(request, member.user, back=club)


def _superuser_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_superuser:
            raise Http404("No such page.")
        response = view(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_store=True)
        return response

    return wrapper


@_superuser_page
@require_GET
def accounts(request: HttpRequest) -> HttpResponse:
    """Every account with its clubs, to make a reset link for any of them (superusers only)."""
    users = get_user_model().objects.order_by("username").prefetch_related("club_memberships__club")
    return render(request, "director/accounts.html", {"users": users})


@_superuser_page
@require_POST
def account_reset_link(request: HttpRequest, user_id: int) -> HttpResponse:
    """A password reset link for any account (superusers only), shown once."""
    return _show_reset_link(request, get_object_or_404(get_user_model(), pk=user_id), back=None)


def _show_reset_link(request: HttpRequest, person: Any, *, back: Club | None) -> HttpResponse:
    link = _link(request, reset_path(person))
    context = {"person": person, "link": link, "back": back, "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}
    return render(request, "director/club_reset_link.html", context)


def _gone(request: HttpRequest, invitation: Invitation | None) -> HttpResponse:
    status = 404 if invitation is None else 410
    return render(request, "registration/join_gone.html", {"invitation": invitation}, status=status)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link: the club and role, then a new account's form, or a "Join" button for
    whoever is logged in. Accepting logs them in and lands on their events."""
    invitation = Invitation.objects.select_related("club").filter(digest=token_digest(token)).first()
    if invitation is None or not invitation.is_usable:
        return _gone(request, invitation)
    joining = request.user if request.user.is_authenticated else None
    form = None if joining else SignUpForm(request.POST or None, email=email_on())
    error = None
    if request.method == "POST" and (joining or form.is_valid()):
        try:
            services.accept_invitation(token=token, user=joining or form.save(commit=False))
        except (services.InvitationUnusable, Invitation.DoesNotExist):
            return _gone(request, invitation)
        except ValidationError as problem:
            error = problem.messages[0]
        else:
            if not joining:
                login(request, form.instance, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to {invitation.club or invitation.club_name}.")
            return redirect("director:home")
    status = 422 if request.method == "POST" else 200
    context = {"invitation": invitation, "form": form, "error": error}
    response = render(request, "registration/join.html", context, status=status)
    patch_cache_control(response, private=True, no_store=True)
    return response


def password_reset(request: HttpRequest) -> HttpResponse:
    """Django's "email me a reset link" page, where the site sends email; else there is no such page."""
    if not email_on():
        raise Http404("This site sends no email: ask your club's owner for a reset link.")
    return auth_views.PasswordResetView.as_view(token_generator=reset_tokens)(request)
