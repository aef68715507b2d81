#!/usr/bin/env python3
"""accounts-client.py: a browser's side of `referee serve --ladder`'s authors'
pages (server/accounts.h), for t3113, with http.client only.

    accounts-client.py URL JAR STEP ARGS...

JAR is a JSON file holding the cookies (made when missing, written back),
so each author is one jar. STEP is one of:

    get PATH                 print "STATUS BODY"
    signup NAME PASS [INVITE]  fetch /signup's form, post it as a browser does
    login NAME PASS          likewise /login
    logout                   /logout's form, posted
    upload NAME FILE         /upload's form, posted as multipart/form-data
    upload-raw NAME FILE     the archive as the raw body, ?name=&csrf=
    retire NAME              the retire button of /me
    post PATH FIELDS [ORIGIN] [CSRF]   a urlencoded POST of FIELDS (a=b&c=d)
                             with the csrf of PATH's own form added unless
                             CSRF is "none" (or given), and an Origin header
                             when ORIGIN is not "-"
    csrf PATH                print the csrf field of PATH's form
    cookie NAME              print the jar's cookie NAME
    setcookie NAME VALUE     put a cookie into the jar (fixation tests)

Each prints the final response as "STATUS BODY" (after the first 303 it
prints "303 LOCATION"). Exit 0 unless the connection fails.
"""
import http.client
import json
import os
import re
import sys
import urllib.parse
import uuid


def load(jar):
    try:
        with open(jar) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def save(jar, cookies):
    with open(jar, "w") as f:
        json.dump(cookies, f)


class Client:
    def __init__(self, url, jar):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port
        self.origin = "http://%s:%d" % (self.host, self.port)
        self.jar = jar
        self.cookies = load(jar)

    def request(self, method, path, body=None, headers=None):
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        c = http.client.HTTPConnection(self.host, self.port, timeout=60)
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                name, _, rest = v.partition("=")
                value = rest.split(";")[0]
                if "Max-Age=0" in v:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = value
        save(self.jar, self.cookies)
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data.decode("utf-8", "replace")

    def csrf(self, path):
        st, _, body = self.request("GET", path)
        m = re.search(r'name="csrf" value="([0-9a-f]+)"', body)
        return m.group(1) if m else ""

    def post(self, path, fields, origin=True, csrf_from=None, csrf=None):
        f = dict(fields)
        if csrf is None:
            csrf = self.csrf(csrf_from or path)
        if csrf != "none":
            f["csrf"] = csrf
        h = {"Content-Type": "application/x-www-form-urlencoded"}
        if origin is True:
            h["Origin"] = self.origin
        elif origin:
            h["Origin"] = origin
        return self.request("POST", path, urllib.parse.urlencode(f), h)

    def upload(self, name, path, raw=False):
        data = open(path, "rb").read()
        csrf = self.csrf("/upload")
        if raw:
            q = urllib.parse.urlencode({"name": name, "csrf": csrf})
            return self.request("POST", "/upload?" + q, data,
                                {"Content-Type": "application/octet-stream", "Origin": self.origin})
        b = uuid.uuid4().hex
        parts = []
        for k, v in (("csrf", csrf), ("name", name)):
            parts.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (b, k, v)).encode())
        parts.append(("--%s\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"%s\"\r\n"
                      "Content-Type: application/octet-stream\r\n\r\n" % (b, os.path.basename(path))).encode()
                     + data + b"\r\n")
        parts.append(("--%s--\r\n" % b).encode())
        return self.request("POST", "/upload", b"".join(parts),
                            {"Content-Type": "multipart/form-data; boundary=" + b, "Origin": self.origin})


def show(res):
    st, h, body = res
    if st == 303:
        print(st, h.get("location", ""))
    else:
        print(st, body)


def main():
    url, jar, step, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    c = Client(url, jar)
    if step == "get":
        show(c.request("GET", args[0]))
    elif step == "signup":
        f = {"name": args[0], "password": args[1]}
        if len(args) > 2:
            f["invite"] = args[2]
        show(c.post("/signup", f))
    elif step == "login":
        show(c.post("/login", {"name": args[0], "password": args[1]}))
    elif step == "logout":
        show(c.post("/logout", {}))
    elif step == "upload":
        show(c.upload(args[0], args[1]))
    elif step == "upload-raw":
        show(c.upload(args[0], args[1], raw=True))
    elif step == "retire":
        show(c.post("/me/retire", {"name": args[0]}, csrf_from="/me"))
    elif step == "post":
        fields = dict(urllib.parse.parse_qsl(args[1]))
        origin = True if len(args) < 3 or args[2] == "-" else args[2]
        csrf = args[3] if len(args) > 3 else None
        show(c.post(args[0], fields, origin=origin, csrf=csrf))
    elif step == "csrf":
        print(c.csrf(args[0]))
    elif step == "cookie":
        print(c.cookies.get(args[0], ""))
    elif step == "setcookie":
        c.cookies[args[0]] = args[1]
        save(jar, c.cookies)
    else:
        sys.exit("unknown step " + step)


main()
