"""The preview page: templates/preview.html.j2, filled in with the names it shows in its heading.

The page itself draws everything else from /state in the browser, so the HTML is rendered once
when `watch` starts; text from the manifest reaches it only as JSON, set as text, never as markup.
"""

from __future__ import annotations

import jinja2

from generator.resources import templates_dir

TEMPLATE = "preview.html.j2"


def render_page(title: str, manifest: str, out: str) -> bytes:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return env.get_template(TEMPLATE).render(title=title, manifest=manifest, out=out).encode("utf-8")
