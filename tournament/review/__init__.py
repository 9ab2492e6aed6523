"""Results checked before they go up: what looks wrong in a round (:mod:`.detect`, read by
:mod:`.flags`), the director's "checked" on each flag (:mod:`.services`), and which rounds the
public pages may show when the club publishes checked rounds only (:mod:`.publish`)."""
