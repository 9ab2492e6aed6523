"""Template tags of the accounts' pages."""

from django import template

from tournament.clubs.accounts import email_on

register = template.Library()


@register.simple_tag
def sends_email() -> bool:
    """Whether the site sends email (``EMAIL_URL`` is set): the login page then offers a reset by email."""
    return email_on()
