"""The helper game in the browser: a local HTTP/JSON API over core, analysis and strategies, and a static page.

``sweeplab serve`` starts it (:mod:`sweeplab.cli.serve`); :func:`sweeplab.web.app.create_app` builds the application.
FastAPI, uvicorn and pydantic come with the ``web`` extra; nothing else in sweeplab imports this package.
"""
