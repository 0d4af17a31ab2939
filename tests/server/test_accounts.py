"""Accounts and sessions: sign up, sign in, sign out, CSRF, throttling, cookies."""

from __future__ import annotations

from fastapi.testclient import TestClient
from player import (
    PASSWORD,
    Player,
    browser,
    connect,
    csrf,
    db,
    new_guest,
    post,
    session_data,
    sign_in,
    sign_up,
)
from sqlalchemy.exc import IntegrityError

from hearts.server import accounts
from hearts.server.app import create_app
from hearts.server.security import SESSION_COOKIE
from hearts.server.settings import Settings


def test_a_new_session_has_a_csrf_token_and_no_player(client: TestClient) -> None:
    body = client.get("/api/session").json()
    assert body["player"] is None and len(body["csrf"]) >= 20
    assert client.get("/api/session").json()["csrf"] == body["csrf"]  # stable in a session
    assert client.get("/api/stats").status_code == 401


def test_guest_is_made_once_per_session(client: TestClient) -> None:
    first = new_guest(client)
    assert post(client, "/api/guest").json()["player"] == {
        "name": None,
        "guest": True,
        "ranking_points": 0,
    }
    assert session_data(client)["player"] == first
    other = browser(client)
    assert new_guest(other) != first


def test_a_legacy_guest_token_is_adopted_but_never_an_accounts(client: TestClient) -> None:
    old = new_guest(client)
    fresh = browser(client)
    assert post(fresh, "/api/guest", {"token": old}).status_code == 200
    assert session_data(fresh)["player"] == old
    sign_up(client, "ada")  # the token now belongs to an account
    thief = browser(client)
    post(thief, "/api/guest", {"token": old})
    assert session_data(thief)["player"] != old


def test_every_change_needs_the_csrf_token(client: TestClient, settings: Settings) -> None:
    new_guest(client)
    body = {"username": "mallory", "password": PASSWORD}
    assert client.post("/api/account/signup", json=body).status_code == 403
    headers = {"X-CSRF-Token": "not-the-token"}
    response = client.post("/api/account/signup", json=body, headers=headers)
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    assert client.post("/api/guest").status_code == 403
    assert client.post("/api/account/signout").status_code == 403
    assert db(settings, "SELECT count(*) FROM players WHERE username IS NOT NULL") == [(0,)]
    assert session_data(client).get("player") is not None  # still signed in as the guest


def test_username_and_password_rules(client: TestClient) -> None:
    new_guest(client)
    for name in ("ab", "x" * 21, "-dash", "sp ace", "<b>bold</b>", "émile", ""):
        response = post(client, "/api/account/signup", {"username": name, "password": PASSWORD})
        assert response.status_code == 400, name
        assert response.json()["detail"] == accounts.USERNAME_RULE
    response = post(client, "/api/account/signup", {"username": "ada", "password": "short"})
    assert response.status_code == 400 and "8 to 128" in response.json()["detail"]
    response = post(client, "/api/account/signup", {"username": "ada", "password": "x" * 129})
    assert response.status_code == 400
    response = post(client, "/api/account/signup", {"username": 5, "password": PASSWORD})
    assert response.status_code == 422  # wrong types: refused before anything happens
    assert session_data(client).get("auth") is None


def test_usernames_are_unique_regardless_of_case(client: TestClient, settings: Settings) -> None:
    new_guest(client)
    sign_up(client, "Ada_L")
    other = browser(client)
    new_guest(other)
    response = post(other, "/api/account/signup", {"username": "ada_l", "password": PASSWORD})
    assert response.status_code == 409 and response.json()["detail"].startswith("That username")
    # The database itself says no, whatever the application does.
    token = session_data(other)["player"]
    try:
        db(
            settings,
            "UPDATE players SET username = 'ADA_L', username_key = 'ada_l' WHERE token = :t",
            t=token,
        )
    except IntegrityError:
        pass
    else:
        raise AssertionError("a second ada_l was stored")


def test_passwords_are_stored_as_argon2id(client: TestClient, settings: Settings) -> None:
    new_guest(client)
    sign_up(client, "ada")
    [(stored,)] = db(settings, "SELECT password_hash FROM players WHERE username = 'ada'")
    assert isinstance(stored, str) and stored.startswith("$argon2id$") and PASSWORD not in stored


def test_sign_up_keeps_the_guests_match(client: TestClient, player: Player) -> None:
    table = player.start()
    player.send("confirm_pass", cards=table["hand"][:3])
    player.until(lambda t: t["awaiting_continue"])
    csrf_before = csrf(client)
    body = sign_up(client, "ada")
    assert body["player"] == {"name": "ada", "guest": False, "ranking_points": 0}
    assert body["csrf"] != csrf_before  # a new session on sign-up
    with connect(client) as socket:
        again = Player(socket)
        again.send("hello")
        assert again.state()["match_id"] == table["match_id"]


def test_sign_in_from_another_browser(client: TestClient, player: Player) -> None:
    table = player.start()
    sign_up(client, "ada")
    laptop = browser(client)
    assert laptop.get("/api/session").json()["player"] is None
    assert sign_in(laptop, "ADA") == 200  # any case
    assert laptop.get("/api/session").json()["player"]["name"] == "ada"
    with connect(laptop) as socket:
        tab = Player(socket)
        tab.send("hello")
        assert tab.state()["match_id"] == table["match_id"]


def test_wrong_password_and_unknown_name_look_the_same(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    stranger = browser(client)
    wrong = post(stranger, "/api/account/signin", {"username": "ada", "password": "nope nope"})
    unknown = post(stranger, "/api/account/signin", {"username": "bob", "password": "nope nope"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "Wrong username or password"}
    assert stranger.get("/api/session").json()["player"] is None


def test_sign_in_is_throttled_per_account(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    attacker = browser(client)
    for _ in range(accounts.ACCOUNT_FAILURES):
        assert sign_in(attacker, "ada", "guess guess") == 401
    response = post(attacker, "/api/account/signin", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 429  # even the right password, for a while
    assert "Too many sign-in attempts" in response.json()["detail"]
    assert 0 < int(response.headers["Retry-After"]) <= 15 * 60 + 1
    # An unknown name is throttled the same way: no hint that "ada" exists.
    for _ in range(accounts.ACCOUNT_FAILURES):
        assert sign_in(attacker, "nobody", "guess guess") == 401
    assert sign_in(attacker, "nobody", "guess guess") == 429


def test_sign_in_is_throttled_per_address(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    attacker = browser(client)
    for number in range(accounts.ADDRESS_FAILURES):
        assert sign_in(attacker, f"name{number}", "guess guess") == 401
    assert sign_in(attacker, "ada") == 429  # the same address (testclient)


def test_a_success_clears_the_accounts_failures(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    other = browser(client)
    for _ in range(accounts.ACCOUNT_FAILURES - 1):
        assert sign_in(other, "ada", "guess guess") == 401
    assert sign_in(other, "ada") == 200
    assert sign_in(other, "ada", "guess guess") == 401  # counting starts again
    assert sign_in(other, "ada") == 200


def test_session_cookie_flags(settings: Settings) -> None:
    app = create_app(settings)
    with TestClient(app) as plain:
        cookie = plain.get("/api/session").headers["set-cookie"].lower()
        assert cookie.startswith(SESSION_COOKIE + "=")
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    with TestClient(app, base_url="https://testserver") as secure:
        cookie = secure.get("/api/session").headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "; secure" in cookie


def test_sign_out_ends_the_session(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    response = post(client, "/api/account/signout")
    assert response.status_code == 200 and response.json()["player"] is None
    assert client.get("/api/session").json()["player"] is None
    assert client.get("/api/stats").status_code == 401
    assert sign_in(client, "ada") == 200


def test_a_guest_cookie_from_before_sign_up_does_not_open_the_account(
    client: TestClient,
) -> None:
    new_guest(client)
    before = dict(client.cookies)
    sign_up(client, "ada")
    old = browser(client)
    old.cookies.update(before)
    assert old.get("/api/session").json()["player"] is None
    assert old.get("/api/stats").status_code == 401


def test_a_name_with_html_comes_back_as_plain_text(client: TestClient, settings: Settings) -> None:
    # Sign-up refuses such names; one stored by other means is still only text.
    token = new_guest(client)
    sign_up(client, "ada")
    name = '<img src=x onerror="alert(1)">'
    db(settings, "UPDATE players SET username = :n WHERE token = :t", n=name, t=token)
    response = client.get("/api/session")
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["player"]["name"] == name


def test_the_session_key_is_made_once_and_kept_private(settings: Settings) -> None:
    from hearts.server.security import session_secret

    key = session_secret(settings)
    path = settings.data_dir / "secret.key"
    assert len(key) >= 40 and path.stat().st_mode & 0o777 == 0o600
    assert session_secret(settings) == key
    assert session_secret(settings.with_changes(secret_key="from-the-environment")) == (
        "from-the-environment"
    )


def test_the_autoplay_route_exists_only_for_tests(client: TestClient) -> None:
    new_guest(client)
    assert post(client, "/api/test/autoplay").status_code == 404
