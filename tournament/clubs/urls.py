"""The clubs' and accounts' addresses: the club pages (in the "director" namespace), joining by an
invitation, and Django's own password reset pages."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from tournament.clubs import views
from tournament.clubs.accounts import reset_tokens

C = "clubs/<int:club_id>/"

director_patterns = [
    path("clubs/", views.clubs, name="clubs"),
    path(C, views.club, name="club"),
    path(C + "people/<int:member_id>/role/", views.club_member, name="club_member"),
    path(C + "people/<int:member_id>/remove/", views.club_member_remove, name="club_member_remove"),
    path(C + "people/<int:member_id>/reset-link/", views.club_reset_link, name="club_reset_link"),
    path(C + "invitations/", views.club_invite, name="club_invite"),
    path(C + "invitations/<int:invitation_id>/revoke/", views.club_invitation_revoke, name="club_invitation_revoke"),
    path("accounts/", views.accounts, name="accounts"),
    path("accounts/<int:user_id>/reset-link/", views.account_reset_link, name="account_reset_link"),
]

urlpatterns = [
    path("join/<str:token>/", views.join, name="join"),
    path("password-reset/", views.password_reset, name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("password_reset_complete"), token_generator=reset_tokens
        ),
        name="password_reset_confirm",
    ),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
