"""gunicorn settings of the production run: `make serve` and `make soak` both start with
`gunicorn -c pitboss/gunicorn_conf.py pitboss.wsgi`, so the soak measures what is served.

SERVE_WORKERS   processes; default two per CPU (a request is mostly Python, one core each)
SERVE_THREADS   threads per process (gthread: keep-alive connections, overlapping database
                waits); default 4
SERVE_READ_TIMEOUT  seconds a client has to send a whole request, head and body (default 10);
                a slower one is cut off and, meanwhile, holds no thread (pitboss/gunicorn_worker.py)
ACCESS_LOG      true: one line a request on stdout (default true; the soak turns it off)
"""

from __future__ import annotations

import os

bind = os.environ.get("SERVE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SERVE_WORKERS") or 2 * (os.cpu_count() or 1))
# gthread, with each request read whole before a thread serves it (slow clients hold none).
worker_class = "pitboss.gunicorn_worker.BufferingThreadWorker"
threads = int(os.environ.get("SERVE_THREADS") or 4)
keepalive = 5
timeout = 120
accesslog = "-" if os.environ.get("ACCESS_LOG", "true").lower() in ("1", "true", "yes") else None
