"""A live server's visitors as they speak HTTP: a table's phone (its link, its CSRF token from the
page, a key made for each hand, each hand sent again after a 5xx as table.js does) and the
director's desk (logged in; forms sent as the browser would send them, redirects followed to
the page whose messages say what happened). Every answer goes into one list per test.
``together`` starts requests at the same moment, each on a thread of its own.

Only the app's URLs and pages are used here, never its code.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from html.parser import HTMLParser

RESENDS = 5  # a phone sends a hand again after any 5xx; a 503 says "busy, send it again"


@dataclass(frozen=True)
class Answer:
    who: str
    what: str
    status: int
    text: str
    location: str = ""
    retry_after: str = ""  # a 503's "send it again after this many seconds"

    @property
    def words(self) -> str:
        return _words(self.text)

    @property
    def said(self) -> str:
        """What the page tells its user: its messages and errors, else its opening words."""
        told = re.findall(r'<(?:p|div) class="(?:message|error)[^"]*"[^>]*>(.*?)</(?:p|div)>', self.text, re.S)
        return " | ".join(_words(text) for text in told) or _words(self.text)[:300]

    def __str__(self) -> str:
        return f"{self.who} {self.what}: {self.status} {self.said}"


def _words(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the answer is the redirect itself


class Browser:
    """One phone's or desk's browser: its cookies, its CSRF token, every answer it got."""

    def __init__(self, url: str, who: str, answers: list[Answer]) -> None:
        self.url, self.who, self.answers = url, who, answers
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects)
        self.csrf = ""

    def get(self, path: str, what: str = "page") -> Answer:
        answer = self._send(urllib.request.Request(self.url + path), what)
        found = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", answer.text)
        self.csrf = found.group(1) if found else self.csrf
        return answer

    def post(self, path: str, what: str, data: list[tuple[str, str]] | dict, headers: dict | None = None,
             body: bytes | None = None) -> Answer:  # fmt: skip
        """POST, sent again (the same body) after a 5xx, as the phone's list of waiting hands does."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if body is None else body
        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf, **(headers or {})}
        for _ in range(RESENDS):
            answer = self._send(urllib.request.Request(self.url + path, body, headers), what)
            if answer.status < 500:
                break
        return answer

    def _send(self, request: urllib.request.Request, what: str) -> Answer:
        try:
            with self.opener.open(request, timeout=120) as response:
                status, headers, text = response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            status, headers, text = error.code, error.headers, error.read().decode()
        answer = Answer(self.who, what, status, text, headers.get("Location", ""), headers.get("Retry-After", ""))
        self.answers.append(answer)
        return answer


@dataclass(frozen=True)
class HandForm:
    action: str  # the form's address: the table's link and the round it was loaded in
    number: int


class Phone(Browser):
    """A table's scorekeeper: opens the table's link and saves hands as table.js does."""

    def __init__(self, url: str, token: str, number: int, answers: list[Answer]) -> None:
        super().__init__(url, f"table {number}", answers)
        self.token = token

    def load(self) -> HandForm | None:
        """The table page as opened now: its hand form, None when it shows none (game over, no game)."""
        page = self.get(f"/table/{self.token}/").text
        start = page.find('id="hand-form"')
        if start < 0:
            return None
        action = re.search(r'action="([^"]+)"', page[start:]).group(1)
        number = re.search(r'name="number" value="(\d+)"', page[start:]).group(1)
        return HandForm(html.unescape(action), int(number))

    def save(self, form: HandForm, values: dict) -> Answer:
        data = {"number": form.number, "version": "", **values, "entry_key": uuid.uuid4().hex}
        headers = {"HX-Request": "true", "X-Next-Hand": "client"}
        return self.post(form.action, f"hand {form.number}", data, headers)

    def dispute(self, round_number: int, number: int, note: str) -> Answer:
        path = f"/table/{self.token}/round/{round_number}/hands/{number}/dispute/"
        return self.post(path, f"dispute of hand {number}", {"note": note}, {"HX-Request": "true"})


class _FormFields(HTMLParser):
    """Every form of a page, as a browser would send it unchanged: [(name, value), ...] each."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[tuple[str, str]]] = []
        self._select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append([])
        elif tag == "input" and a.get("name") and self.forms:
            kind = a.get("type", "text")
            if kind not in ("checkbox", "radio", "submit", "button", "file") or "checked" in a:
                self.forms[-1].append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and self.forms:
            self._select = (a.get("name", ""), [], [])
        elif tag == "option" and self._select is not None:
            self._select[1].append(a.get("value", ""))
            if "selected" in a:
                self._select[2].append(a.get("value", ""))
        elif tag == "textarea" and self.forms:
            self._textarea = a.get("name", "")
            self.forms[-1].append((self._textarea, ""))

    def handle_data(self, data):
        if self._textarea is not None:
            name, value = self.forms[-1][-1]
            self.forms[-1][-1] = (name, value + data)

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            name, options, chosen = self._select
            if name and options:
                self.forms[-1].append((name, (chosen or options)[0]))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            name, value = self.forms[-1][-1]
            self.forms[-1][-1] = (name, value.removeprefix("\n"))
            self._textarea = None


class Director(Browser):
    """The director at the desk, logged in."""

    def __init__(self, url: str, username: str, password: str, answers: list[Answer]) -> None:
        super().__init__(url, "director", answers)
        self.get("/login/")
        login = self.post("/login/", "login", {"username": username, "password": password})
        assert login.status == 302, login

    def form(self, path: str, field: str) -> dict[str, str]:
        """The form of the page at ``path`` that has ``field``, as it would be sent unchanged."""
        parser = _FormFields()
        parser.feed(self.get(path).text)
        return dict(next(form for form in parser.forms if any(name == field for name, _ in form)))

    def submit(self, path: str, what: str, data: dict) -> Answer:
        """A form sent as a browser sends it: POST and, when answered with a redirect, open the
        page it leads to (its messages say what happened). The answer, kept as ``what``, is that
        page's, with the redirect's address; the POST's own answer is kept as a "form"'s."""
        sent = self.post(path, "form", data)
        if sent.status >= 500:
            return sent
        page = self.get(sent.location) if sent.status == 302 else sent
        answer = Answer(self.who, what, page.status, page.text, sent.location)
        self.answers.append(answer)
        return answer

    def upload(self, path: str, what: str, fields: dict[str, str], name: str, content: bytes) -> Answer:
        boundary = uuid.uuid4().hex
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                 for k, v in fields.items()]  # fmt: skip
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="backup.json"\r\n'
                     "Content-Type: application/json\r\n\r\n".encode() + content + b"\r\n")  # fmt: skip
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.post(path, what, {}, {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body)

    def new_event(self, *, teams: int, **fields: object) -> int:
        """A tournament made on the new-tournament form, its teams registered, play started:
        round 1 (a league's night 1) running, or a knockout's bracket drawn. Returns its id."""
        form = self.form("/t/new/", "preset") | {"name": f"Race {uuid.uuid4().hex[:6]}", "entry_fee": "0"}
        made = self.post("/t/new/", "new tournament", form | {k: str(v) for k, v in fields.items()})
        assert made.status == 302, made
        tournament_id = int(re.search(r"/t/(\d+)/", made.location).group(1))
        for number in range(1, teams + 1):
            added = self.post(f"/t/{tournament_id}/teams/add/", "team", {"first": f"N{number}", "second": f"S{number}"})
            assert added.status == 302, added
        assert self.post(f"/t/{tournament_id}/rounds/seat/", "seat", {}).status == 302
        if fields["format"] not in ("single_elimination", "double_elimination"):
            assert self.post(f"/t/{tournament_id}/rounds/1/start/", "start", {}).status == 302
        return tournament_id

    def phones(self, tournament_id: int, round_number: int = 1) -> list[Phone]:
        """A phone at every table of the round, from the links the director hands out."""
        page = self.get(f"/t/{tournament_id}/rounds/{round_number}/links/").text
        tokens = list(dict.fromkeys(re.findall(r"/table/([\w-]+)/", page)))
        return [Phone(self.url, token, number, self.answers) for number, token in enumerate(tokens, start=1)]

    def change_rules(self, tournament_id: int, overrides: dict) -> Callable[[], Answer]:
        """The tournament's settings page opened now; returns the confirmed save of new rule
        overrides, to send."""
        path = f"/t/{tournament_id}/edit/"
        form = self.form(path, "rule_overrides") | {"rule_overrides": json.dumps(overrides), "confirm_rules": "yes"}
        return lambda: self.submit(path, f"rules {overrides}", form)


def saves(phones: list[Phone], forms: list[HandForm | None], values: dict) -> list[Callable[[], Answer]]:
    """Each phone's save of ``values`` on the form it has open (none where it has none)."""
    return [partial(phone.save, form, values) for phone, form in zip(phones, forms, strict=True) if form is not None]


def together(*actions: Callable[[], object], stagger: float = 0.0) -> list[object]:
    """Run ``actions`` at once, each on a thread of its own (each request on a connection of its
    own): all wait at a barrier, then every action but the first leaves ``stagger`` seconds after it."""
    barrier = threading.Barrier(len(actions))
    results: list[object] = [None] * len(actions)

    def run(index: int, action: Callable[[], object]) -> None:
        barrier.wait(timeout=60)
        if index and stagger:
            time.sleep(stagger)  # the later requests meet the first at another point of its work
        try:
            results[index] = action()
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(i, action)) for i, action in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    failed = [result for result in results if isinstance(result, Exception)]
    if failed:
        raise failed[0]
    return results
