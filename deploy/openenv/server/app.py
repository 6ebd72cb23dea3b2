"""The FastAPI app OpenEnv's tooling runs (``uvicorn server.app:app``): palaestra's server, configured from
``$PALAESTRA_SERVE_CONFIG`` (JSON of ``ServeConfig``; every env by default)."""

from palaestra.integrations.openenv_server import app_from_environment, serve

app = app_from_environment()


def main(host: str = "127.0.0.1", port: int = 8000) -> None:
    serve(host=host, port=port)


if __name__ == "__main__":
    main()
