"""API routes declared once: path, method, parameters, serving mark, errors, an example.

A topic module (``backend/api/<topic>.py``) declares its routes on a ``Topic``; the app
factory registers every topic of ``backend/api/__init__.py``. The declaration is the one
place a route's input is validated (its ``args`` / ``body`` schema, parsed before the view
runs), and what the route-walking test and the OpenAPI document read. It also says whether
the route changes state: only those are held to the same-origin rule of the serving front
(``backend/access.py``); a POST must say so, as a POST may only read (a search).
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, Response, request
from marshmallow import Schema

from mindinsight.backend.context import data_provider
from mindinsight.backend.json_answers import json_response
from mindinsight.backend.params import load_args, load_body
from mindinsight.backend.view_marks import CHANGES_STATE_ATTRIBUTE, MARK_ATTRIBUTE, MARKS, ON_LOOP_MARKS

API_PREFIX = "/v1/mindinsight"
JSON = "application/json"


@dataclass(frozen=True)
class ApiRoute:
    """One REST route.

    ``view(provider, **params)`` (the app's ``DataProvider``) returns JSON-able data or a
    ``Response``; ``params`` are the validated query parameters (``args``) and body fields
    (``body``). ``errors`` lists the
    error classes a caller can cause beyond bad parameters; ``example`` is a valid query on
    the test fixtures (``{"train_id": ...}`` and the rest), used by the route-walking test.
    ``media_type`` is what a 200 answer carries (``image/*``: one of the image types; a tuple:
    one of those, as the query asks);
    ``answer`` the shape of a JSON answer (``backend/api/shapes.py``; of the JSON one of several
    media types), held to the example's
    real answer by the route-walking test.
    ``changes_state``: the route writes (a PUT, DELETE, a POST that stores something), so a
    page of another site may not call it.
    """

    topic: str
    rule: str
    method: str
    view: Callable
    serving: str
    summary: str
    args: Schema | None = None
    body: Schema | None = None
    errors: tuple = ()
    example: dict = field(default_factory=dict)
    media_type: str | tuple[str, ...] = JSON
    changes_state: bool = False
    answer: dict | None = None

    @property
    def media_types(self) -> tuple[str, ...]:
        """Every media type a 200 answer may carry."""
        return self.media_type if isinstance(self.media_type, tuple) else (self.media_type,)

    @property
    def path(self) -> str:
        """The full path below the server root (without a --url-path-prefix)."""
        return API_PREFIX + self.rule

    @property
    def endpoint(self) -> str:
        return f"api.{self.topic}.{self.view.__name__}"


class _Methods:
    """``get`` / ``post`` / ``put``: the subclass's ``route`` with that method."""

    def get(self, rule: str, **options):
        return self.route("GET", rule, **options)

    def post(self, rule: str, **options):
        return self.route("POST", rule, **options)

    def put(self, rule: str, **options):
        return self.route("PUT", rule, **options)


class Topic(_Methods):
    """The routes of one REST topic (train jobs, scalars, images, ...)."""

    def __init__(self, name: str):
        self.name = name
        self.routes: list[ApiRoute] = []

    def group(self, **shared) -> "RouteGroup":
        """Routes of this topic that share options (``serving``, ``args``, ``errors``, ``example``...)."""
        return RouteGroup(self, shared)

    def route(
        self,
        method: str,
        rule: str,
        *,
        serving: str,
        args: Schema | None = None,
        body: Schema | None = None,
        errors: tuple = (),
        example: dict | None = None,
        media_type: str | tuple[str, ...] = JSON,
        changes_state: bool | None = None,
        answer: dict | None = None,
    ):
        """Declare the decorated function as the view of ``method rule``.

        ``changes_state`` is False for GET, True by default for PUT and DELETE, and must be
        given for POST.
        """
        if serving not in MARKS:
            raise ValueError(f"{rule}: serving must be one of {MARKS}")
        if changes_state is None:
            if method == "POST":
                raise ValueError(f"POST {rule}: say whether it changes state (changes_state=True/False)")
            changes_state = method in ("PUT", "DELETE", "PATCH")
        if changes_state and method == "GET":
            raise ValueError(f"GET {rule}: a GET may not change state")
        if answer is not None and JSON not in (media_type if isinstance(media_type, tuple) else (media_type,)):
            raise ValueError(f"{rule}: only a JSON answer has a declared shape")
        arg_fields = args.fields.items() if args else ()
        sizing = [name for name, arg in arg_fields if getattr(arg, "sizes_answer", False)]
        if sizing and serving in ON_LOOP_MARKS:
            # The event loop serves every other request meanwhile: an answer that grows with its
            # query is computed in the pool (a reusable one is still kept and served on the loop).
            raise ValueError(f"{rule}: its answer grows with {sizing}; serving must not be one of {ON_LOOP_MARKS}")

        def declare(view: Callable) -> Callable:
            summary = (view.__doc__ or "").strip().splitlines()[0] if view.__doc__ else view.__name__
            self.routes.append(
                ApiRoute(
                    self.name,
                    rule,
                    method,
                    view,
                    serving,
                    summary,
                    args,
                    body,
                    tuple(errors),
                    dict(example or {}),
                    media_type,
                    changes_state,
                    answer,
                )
            )
            return view

        return declare


class RouteGroup(_Methods):
    """Options that several routes of a topic share, declared once.

    The group's ``errors`` and ``example`` are what each of its routes starts from: a route's
    ``errors`` follow the group's, its ``example`` keys go over the group's. Any other option
    a route gives replaces the group's.
    """

    def __init__(self, topic: Topic, shared: dict):
        self.topic = topic
        self.shared = shared

    def _with(self, options: dict) -> dict:
        errors = (*self.shared.get("errors", ()), *options.pop("errors", ()))
        example = {**self.shared.get("example", {}), **(options.pop("example", None) or {})}
        return {**self.shared, **options, "errors": errors, "example": example}

    def group(self, **more) -> "RouteGroup":
        """A group within this one: ``more`` adds to its options as a route's would."""
        return RouteGroup(self.topic, self._with(more))

    def route(self, method: str, rule: str, **options):
        """Declare the decorated function as ``Topic.route`` does, with the group's options."""
        return self.topic.route(method, rule, **self._with(options))


def _flask_view(route: ApiRoute) -> Callable:
    def view():
        params = load_args(route.args, request.args) if route.args is not None else {}
        if route.body is not None:
            params.update(load_body(route.body, request.get_data(), request.is_json))
        result = route.view(data_provider(), **params)
        return result if isinstance(result, Response) else json_response(result)

    view.__name__ = route.endpoint
    setattr(view, MARK_ATTRIBUTE, route.serving)
    setattr(view, CHANGES_STATE_ATTRIBUTE, route.changes_state)
    return view


def register_routes(app: Flask, routes: list[ApiRoute], url_path_prefix: str = "") -> None:
    """Add ``routes`` to ``app`` below ``url_path_prefix``."""
    for route in routes:
        app.add_url_rule(
            url_path_prefix + route.path, endpoint=route.endpoint, view_func=_flask_view(route), methods=[route.method]
        )
