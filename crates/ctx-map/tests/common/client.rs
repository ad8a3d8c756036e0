//! A requests-like client library with its tests: the fixture of the task maps' tests.

/// An HTTP client package: a session class with many methods, helpers every
/// module uses, and tests that define look-alikes of the package's names.
pub const CLIENT: &[(&str, &str)] = &[
    ("README.md", "# reqlib\n\nHTTP for people.\n"),
    ("pyproject.toml", "[project]\nname = \"reqlib\"\n"),
    (
        "src/reqlib/utils.py",
        r#""""Helpers every module uses."""

def to_native_string(value, encoding="ascii"):
    return value.decode(encoding)

def requote_uri(uri):
    return uri

def get_netrc_auth(url, raise_errors=False):
    return None

def should_bypass_proxies(url, no_proxy):
    return False

def merge_setting(request_setting, session_setting, dict_class=dict):
    return request_setting or session_setting
"#,
    ),
    (
        "src/reqlib/exceptions.py",
        r#""""The exceptions reqlib raises."""

class RequestException(IOError):
    def __init__(self, *args, request=None, response=None):
        self.request = request
        self.response = response

class HTTPError(RequestException):
    """An HTTP error occurred."""

class ConnectionError(RequestException):
    """A connection error occurred."""

class ProxyError(ConnectionError):
    """A proxy error occurred."""

class SSLError(ConnectionError):
    """An SSL error occurred."""

class Timeout(RequestException):
    """The request timed out."""

class ConnectTimeout(ConnectionError, Timeout):
    """The request timed out while trying to connect to the remote server."""

class ReadTimeout(Timeout):
    """The server did not send any data in the allotted amount of time."""

class TooManyRedirects(RequestException):
    """Too many redirects."""

class InvalidURL(RequestException, ValueError):
    """The URL provided was somehow invalid."""

class InvalidHeader(RequestException, ValueError):
    """The header value provided was somehow invalid."""

class ContentDecodingError(RequestException):
    """Failed to decode response content."""
"#,
    ),
    (
        "src/reqlib/cookies.py",
        r#""""Cookie jars that behave like dicts."""
from .exceptions import InvalidHeader

class RequestsCookieJar:
    def get(self, name, default=None, domain=None, path=None):
        return default

    def set(self, name, value, **kwargs):
        pass

    def update(self, other):
        pass

def extract_cookies_to_jar(jar: RequestsCookieJar, request, response):
    pass

def get_cookie_header(jar: RequestsCookieJar, request):
    return None

def cookiejar_from_dict(cookie_dict, cookiejar=None, overwrite=True) -> RequestsCookieJar:
    return RequestsCookieJar()

def merge_cookies(cookiejar: RequestsCookieJar, cookies) -> RequestsCookieJar:
    if not isinstance(cookies, dict):
        raise InvalidHeader("cookies must be a dict")
    return cookiejar_from_dict(cookies, cookiejar=cookiejar)
"#,
    ),
    (
        "src/reqlib/models.py",
        r#"from .utils import to_native_string, requote_uri
from .cookies import get_cookie_header, cookiejar_from_dict, RequestsCookieJar
from .exceptions import HTTPError, InvalidURL, InvalidHeader, ContentDecodingError, RequestException

class Request:
    def __init__(self, method=None, url=None, headers=None):
        self.method = to_native_string(method)
        self.url = requote_uri(url)

    def prepare(self):
        return PreparedRequest()

class PreparedRequest:
    def prepare_url(self, url, params):
        self.url = requote_uri(url)

    def prepare_headers(self, headers):
        self.headers = {to_native_string(k): v for k, v in headers.items()}

class Response:
    def json(self, **kwargs):
        return {}

    def raise_for_status(self):
        raise HTTPError(self)

    def iter_content(self, chunk_size=1):
        raise ContentDecodingError(chunk_size)
"#,
    ),
    (
        "src/reqlib/adapters.py",
        r#"from .models import Response, PreparedRequest
from .utils import get_netrc_auth, should_bypass_proxies, to_native_string
from .exceptions import ConnectTimeout, ReadTimeout, ProxyError, SSLError, ConnectionError, InvalidURL
from .cookies import extract_cookies_to_jar

class HTTPAdapter:
    def send(self, request: PreparedRequest, stream=False, timeout=None) -> Response:
        if should_bypass_proxies(request.url, None):
            get_netrc_auth(request.url)
        return self.build_response(request, to_native_string(request.method))

    def build_response(self, req, resp) -> Response:
        extract_cookies_to_jar(resp.cookies, req, resp)
        return Response()

    def cert_verify(self, conn, url, verify, cert):
        if not url:
            raise InvalidURL(url)
        raise SSLError(url)

    def proxy_manager_for(self, proxy, **proxy_kwargs):
        raise ProxyError(proxy)

    def close(self):
        raise ConnectionError("closed")

    def get_connection(self, url, proxies=None):
        raise ConnectTimeout(url)

    def read(self, conn):
        raise ReadTimeout(conn)
"#,
    ),
    (
        "src/reqlib/sessions.py",
        r#"from .adapters import HTTPAdapter
from .models import Request, PreparedRequest, Response
from .utils import merge_setting, requote_uri, to_native_string
from .cookies import RequestsCookieJar, cookiejar_from_dict, merge_cookies, extract_cookies_to_jar, get_cookie_header
from .exceptions import TooManyRedirects, InvalidHeader, HTTPError

class SessionRedirectMixin:
    def get_redirect_target(self, resp: Response):
        return to_native_string(resp.headers["location"])

    def should_strip_auth(self, old_url, new_url):
        return requote_uri(old_url) != requote_uri(new_url)

    def resolve_redirects(self, resp: Response, req: PreparedRequest, stream=False, timeout=None):
        url = self.get_redirect_target(resp)
        return self.send(req)

    def rebuild_auth(self, prepared_request: PreparedRequest, response: Response):
        pass

class Session(SessionRedirectMixin):
    def __init__(self):
        self.adapters = {"https://": HTTPAdapter()}

    def request(self, method, url, params=None, data=None, headers=None, cookies=None) -> Response:
        jar = merge_cookies(cookiejar_from_dict({}), cookies)
        req = Request(method=method, url=url, headers=merge_setting(headers, {}))
        return self.send(req.prepare())

    def send(self, request: PreparedRequest, **kwargs) -> Response:
        return self.adapters["https://"].send(request)
"#,
    ),
    (
        "src/reqlib/api.py",
        r#"from .sessions import Session
from .models import Response

def request(method, url, **kwargs) -> Response:
    return Session().request(method=method, url=url, **kwargs)

def get(url, params=None, **kwargs) -> Response:
    return request("get", url, params=params, **kwargs)

def post(url, data=None, json=None, **kwargs) -> Response:
    return request("post", url, data=data, json=json, **kwargs)
"#,
    ),
    (
        "src/reqlib/__init__.py",
        "from .api import get, post, request\nfrom .sessions import Session\nfrom .models import Request, Response\n",
    ),
    (
        "tests/test_sessions.py",
        r#"from reqlib import Session, Request, Response
from reqlib.utils import to_native_string

class Session(Session):
    """A session that records what it sends."""

    def send(self, request, **kwargs):
        self.sent.append(request)
        return Response()

def test_session_sends_prepared_requests():
    session = Session()
    session.request("get", "https://example.invalid")
    assert to_native_string(b"x") == "x"

def test_request_keeps_its_method():
    assert Request(method="GET").method == "GET"
"#,
    ),
    (
        "tests/test_utils.py",
        r#"from reqlib.utils import requote_uri, merge_setting

def requote_uri(uri):
    return uri

def test_requote_uri_keeps_plain_urls():
    assert requote_uri("https://example.invalid") == "https://example.invalid"

def test_merge_setting_prefers_the_request():
    assert merge_setting(1, 2) == 1
"#,
    ),
];
