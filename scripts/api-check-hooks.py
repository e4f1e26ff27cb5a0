"""Schemathesis hooks for scripts/api-check.

epf-server answers as Apple does, with `Content-Type: text/javascript;
charset=utf-8` for JSON too, and with JSONP (`\n\nname({...});`) when the
request has `callback`. Schemathesis validates bodies of media types it
can read, and text/javascript is not one: this deserializer reads the JSON,
unwrapping a JSONP call first (its function name must be the request's
`callback`), so that docs/openapi.yaml's schemas are checked against every
body.
"""

import json
import re

import schemathesis

JSONP = re.compile(rb"\A\n\n([A-Za-z_$][A-Za-z0-9_$.]*)\((.*)\);\Z", re.DOTALL)


@schemathesis.deserializer("text/javascript")
def deserialize_javascript(ctx, response):
    body = response.content
    query = ctx.case.query if ctx.case is not None and isinstance(ctx.case.query, dict) else {}
    callback = query.get("callback")
    match = JSONP.match(body)
    if match:
        if callback is not None and match.group(1).decode() != str(callback):
            raise ValueError(f"JSONP calls {match.group(1)!r}, the request's callback is {callback!r}")
        body = match.group(2)
    elif response.status_code == 200 and isinstance(callback, str):
        raise ValueError(f"callback={callback!r} answered 200, but the body is not JSONP")
    elif not body.endswith(b"\n"):
        raise ValueError("a JSON body must end with a newline")
    return json.loads(body.decode("utf-8"))
