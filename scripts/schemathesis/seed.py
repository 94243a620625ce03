"""Creates one announcement with a photo through the public API and prints the values the schemathesis
configuration needs (SC_ID, SC_PASSWORD, SC_IMAGE) as shell assignments.

Basic auth on the photo upload is per announcement (id:managementPassword), which no OpenAPI document can
hand to a generic tool, so the run gets one real announcement made the way the app makes it.
"""

import base64
import json
import sys
import urllib.request
import uuid

# A 2x2 PNG: the backend detects the type by magic bytes, so it must be a real image.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg=="
)


def call(request):
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.load(response)


def main(base):
    report = {
        "petName": "Rex", "species": "DOG", "sex": "MALE",
        "locationLatitude": 52.2297, "locationLongitude": 21.0122,
        "email": "owner@example.com", "lastSeenDate": "2025-11-18", "status": "MISSING",
    }
    status, created = call(urllib.request.Request(
        f"{base}/api/v1/announcements", data=json.dumps(report).encode(),
        headers={"Content-Type": "application/json"}))
    if status != 201:
        sys.exit(f"seed: create answered {status}, expected 201")
    ident, password = created["id"], created["managementPassword"]

    boundary = "spotcheck" + uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="pet.png"\r\n'
            f"Content-Type: image/png\r\n\r\n").encode() + PNG + f"\r\n--{boundary}--\r\n".encode()
    credentials = base64.b64encode(f"{ident}:{password}".encode()).decode()
    status, _ = call(urllib.request.Request(
        f"{base}/api/v1/announcements/{ident}/photos", data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {credentials}"}))
    if status != 201:
        sys.exit(f"seed: photo upload answered {status}, expected 201")

    _, stored = call(urllib.request.Request(f"{base}/api/v1/announcements/{ident}"))
    image = stored["photoUrl"].rsplit("/", 1)[-1]
    print(f"SC_ID={ident} SC_PASSWORD={password} SC_IMAGE={image}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: seed.py BASE_URL")
    main(sys.argv[1].rstrip("/"))
