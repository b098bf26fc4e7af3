"""Ray Serve: replicas of the reward server (``llenvs_go.serve``) behind one route.

``reward_app(envs)`` is a Ray Serve application. Each replica starts the Go
reward server of :mod:`llenvs_go.serving` on its own loopback port, with the
same environments (they pickle by configuration and are rebuilt in the
replica), and hands it every request that reaches the route: the body, the
``Authorization`` header and the path below the route (``/get_reward``,
``/score``, ``/verify``, ``/health``, ``/ready``, ``/metrics``). The answer,
its status and its ``Retry-After`` come back unchanged, so a client sees the
same protocol as from ``llenvs-go serve``; Ray Serve does the routing, the
replica placement and the autoscaling::

    from ray import serve
    from llenvs_go.integrations.ray_serve import reward_app

    serve.start(http_options={"host": "0.0.0.0", "port": 8000})
    serve.run(reward_app(env, num_replicas=4), route_prefix="/rewards")
    # OpenRLHF: --reward.remote_url http://<head>:8000/rewards/get_reward

Backpressure: each replica takes ``max_ongoing_requests`` requests at once
(its server's concurrency and queue bound what it scores), and Ray Serve
queues at most ``max_queued_requests`` more per caller before answering 503;
no backlog is unbounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULT_MAX_ONGOING_REQUESTS", "DEFAULT_MAX_QUEUED_REQUESTS", "RewardReplica", "reward_app"]

#: Requests one replica handles at once (Ray Serve's default, 5, is far too few
#: for OpenRLHF's one request per sample).
DEFAULT_MAX_ONGOING_REQUESTS = 256

#: Requests Ray Serve holds waiting for a replica before it answers 503.
DEFAULT_MAX_QUEUED_REQUESTS = 1024

# Headers of the server's answer passed on to the client.
_PASSED_ON = ("content-type", "retry-after", "allow")


class RewardReplica:
    """One replica: a loopback reward server and the forwarding of the route's requests to it.

    Ray Serve builds it from the arguments :func:`reward_app` binds; it is not
    meant to be made by hand.
    """

    def __init__(self, environments: Any = None, serve_options: Mapping[str, Any] | None = None) -> None:
        from llenvs_go.serving import serve

        options = dict(serve_options or {})
        for key in ("host", "port"):
            if key in options:
                raise ValueError(f"serve option {key!r} is chosen by the replica (loopback, a free port); "
                                 "set Ray Serve's http_options instead")
        self._server = serve(environments, host="127.0.0.1", port=0, **options)
        self._session: Any = None

    @property
    def url(self) -> str:
        """The base URL of this replica's own server."""
        return self._server.url

    async def __call__(self, request: Any) -> Any:
        """Forward one Starlette request to the replica's server and return its answer unchanged."""
        import aiohttp
        from starlette.responses import Response

        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        path = _path_below_route(request.scope)
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("authorization", "content-type")}
        body = await request.body()
        async with self._session.request(request.method, self._server.url + path, data=body, headers=headers,
                                         params=request.query_params) as answer:
            content = await answer.read()
            passed = {k: v for k, v in answer.headers.items() if k.lower() in _PASSED_ON}
            return Response(content=content, status_code=answer.status, headers=passed)

    def check_health(self) -> None:
        """Ray Serve's health check: the replica is unhealthy once its server has stopped."""
        if not self._server.running:
            raise RuntimeError("the replica's reward server has stopped")

    def stop(self, timeout: float = 30.0) -> bool:
        """Stop the replica's server gracefully (every accepted request answered); True when none was cut off."""
        return self._server.stop(timeout)

    def __del__(self) -> None:
        try:
            self._server.stop(5.0)
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


def _path_below_route(scope: Mapping[str, Any]) -> str:
    """The request's path with the route prefix (ASGI ``root_path``) taken off."""
    path = scope.get("path") or "/"
    root = (scope.get("root_path") or "").rstrip("/")
    if root and (path == root or path.startswith(root + "/")):
        path = path[len(root):]
    return path or "/"


def reward_app(environments: Any = None, *, num_replicas: int | str | None = None,
               autoscaling_config: Mapping[str, Any] | None = None,
               max_ongoing_requests: int = DEFAULT_MAX_ONGOING_REQUESTS,
               max_queued_requests: int = DEFAULT_MAX_QUEUED_REQUESTS,
               ray_actor_options: Mapping[str, Any] | None = None, name: str = "llenvs_rewards",
               **serve_options: Any) -> Any:
    """A Ray Serve application of reward-server replicas, for ``serve.run(app, route_prefix=...)``.

    Args:
        environments: what :func:`llenvs_go.serve` takes: an environment, a
            list, a mapping ``{name: environment}``, or None for ground-truth
            labels only. Each replica rebuilds them from their configuration.
        num_replicas: fixed replica count (default 1 without autoscaling).
        autoscaling_config: Ray Serve's autoscaling instead of a fixed count,
            e.g. ``{"min_replicas": 1, "max_replicas": 8,
            "target_ongoing_requests": 64}`` (requests per replica it aims at).
        max_ongoing_requests: requests one replica takes at once.
        max_queued_requests: requests Ray Serve holds for replicas before
            answering 503 (-1 is Ray's unbounded default; refused here).
        ray_actor_options: e.g. ``{"num_cpus": 4}``: the Go server scores on
            the replica's threads, so give each the CPUs it should use.
        name: the deployment's name.
        **serve_options: the server's options (``labels``, ``token``,
            ``concurrency``, ``queue``, ``max_items``, ``request_timeout``, ...).
    """
    from ray import serve

    if num_replicas is not None and autoscaling_config is not None:
        raise ValueError("give num_replicas or autoscaling_config, not both")
    if not isinstance(max_ongoing_requests, int) or max_ongoing_requests < 1:
        raise ValueError(f"max_ongoing_requests must be a positive int, got {max_ongoing_requests!r}")
    if not isinstance(max_queued_requests, int) or max_queued_requests < 1:
        raise ValueError(f"max_queued_requests must be a positive int (a bounded queue), got {max_queued_requests!r}")
    options: dict[str, Any] = {"name": name, "max_ongoing_requests": max_ongoing_requests,
                               "max_queued_requests": max_queued_requests}
    if autoscaling_config is not None:
        options["autoscaling_config"] = dict(autoscaling_config)
    else:
        options["num_replicas"] = 1 if num_replicas is None else num_replicas
    if ray_actor_options is not None:
        options["ray_actor_options"] = dict(ray_actor_options)
    deployment = serve.deployment(RewardReplica, **options)
    return deployment.bind(environments, serve_options)
