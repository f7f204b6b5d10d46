"""Images of a training that is still writing them (issue 17): a step the server listed stays
fetchable while new steps arrive.

The image page lists a tag's kept steps, asks ``plugins?manual_update=true`` (which wakes a
reload at once), then fetches the listed steps. The 10-per-tag reservoir thins a step out as
new ones arrive, and the fetch of a step listed a moment before answered 400 ``5054500D``
(17 of 21 tries). Here a client does the same as fast as it can while a writer appends images:
every listed step must be served, with the image of that very step.
"""

import time

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from tests.helpers.live_images import LiveImages, step_of
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

TAGS = ("first", "second", "third")
JOB = "./live"


def listed_steps(server, tag: str) -> list[int]:
    response = server.get("/datavisual/image/metadata", params={"train_id": JOB, "tag": tag})
    assert response.status_code == 200, response.text
    return [item["step"] for item in response.json()["metadatas"]]


def test_listed_images_stay_fetchable_while_steps_arrive(tmp_path):
    job = tmp_path / "base" / "live"
    with LiveImages(job, TAGS, period=0.01) as live:
        live.write_steps(30)
        with running_server(tmp_path / "base", tmp_path / "ws", reload_interval=1) as server:
            wait_for(lambda: server.get("/datavisual/plugins", params={"train_id": JOB, "manual_update": "true"}).ok)
            wait_for(lambda: len(listed_steps(server, "first/image")) == limits.STEPS_PER_TAG[PluginName.IMAGE])
            fetched, failures, thinned = 0, [], 0
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                listings = {tag: listed_steps(server, f"{tag}/image") for tag in TAGS}
                server.get("/datavisual/plugins", params={"train_id": JOB, "manual_update": "true"})
                time.sleep(0.2)  # the reload it woke runs, as while a browser lays out the page
                for tag, steps in listings.items():
                    for step in (steps[-1], steps[0]):  # the page shows the latest; a slider the oldest
                        params = {"train_id": JOB, "tag": f"{tag}/image", "step": step}
                        response = server.get("/datavisual/image/single-image", params=params)
                        fetched += 1
                        if response.status_code != 200:
                            failures.append((tag, step, response.status_code, response.text))
                        elif step_of(response.content) != step:
                            failures.append((tag, step, "bytes of step", step_of(response.content)))
                now = listed_steps(server, f"{TAGS[0]}/image")
                thinned += len(set(listings[TAGS[0]]) - set(now))
            written = live.step
    assert failures == [], f"{len(failures)} of {fetched} fetches failed: {failures[:5]}"
    # The training really moved on meanwhile: many listed steps were thinned out.
    assert written > 300 and thinned > 20 and fetched > 100
