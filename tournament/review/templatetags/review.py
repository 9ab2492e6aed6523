"""``{% round_flags round %}``: a round's flags on whichever page runs it (the core's board, a
progressive round's, a league night's, a Swiss round's), one partial for all of them."""

from django import template

from tournament.review.views import FLAGS, flags_context

register = template.Library()


@register.inclusion_tag(FLAGS, takes_context=True)
def round_flags(context: template.Context, round_) -> dict:
    """The flags of ``round_`` with the page's tournament, CSRF token and viewer."""
    return flags_context(
        round_.tournament, round_, csrf_token=context.get("csrf_token"), request=context.get("request")
    )
