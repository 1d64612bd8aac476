/* fetch.h: the scrape config's TLS and credentials read with libyaml, GETs made with one
 * libcurl easy handle per peer. */
#include "fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <curl/curl.h>
#include <yaml.h>

#define FETCH_MAX_BODY ((size_t)256 << 20)

struct fetch_cfg {
	char *ca_file, *cert_file, *key_file, *server_name;
	bool insecure;
	long min_version; /* CURL_SSLVERSION_* */
	char *user, *password;
	bool basic;
	char *auth_type, *credentials;
	bool authorization;
};

struct fetch {
	CURL *c;
	struct curl_slist *headers;
	char *server_name;
	char ebuf[CURL_ERROR_SIZE];
};

void fetch_cfg_free(struct fetch_cfg *cfg)
{
	if (!cfg)
		return;
	free(cfg->ca_file);
	free(cfg->cert_file);
	free(cfg->key_file);
	free(cfg->server_name);
	if (cfg->password)
		memset(cfg->password, 0, strlen(cfg->password));
	free(cfg->user);
	free(cfg->password);
	if (cfg->credentials)
		memset(cfg->credentials, 0, strlen(cfg->credentials));
	free(cfg->auth_type);
	free(cfg->credentials);
	free(cfg);
}

/* What one load needs to say where it failed and to find relative files. */
struct cfgload {
	const char *path;
	yaml_document_t *doc;
	struct fetch_cfg *cfg;
	char *err;
	size_t errlen;
};

static int cfgfail(struct cfgload *l, const char *sect, const char *key, const char *what)
{
	snprintf(l->err, l->errlen, "%s: %s%s%s: %s", l->path, sect ? sect : "",
		 sect && key ? "." : "", key ? key : "", what);
	return -EINVAL;
}

/* name as the config file's directory sees it (malloc'd), or NULL. */
static char *cfg_relative(const char *cfgpath, const char *name)
{
	const char *slash = strrchr(cfgpath, '/');
	if (name[0] == '/' || !slash)
		return strdup(name);
	size_t dl = (size_t)(slash - cfgpath) + 1, nl = strlen(name);
	char *p = malloc(dl + nl + 1);
	if (!p)
		return NULL;
	memcpy(p, cfgpath, dl);
	memcpy(p + dl, name, nl + 1);
	return p;
}

/* A secret file's text without its trailing blanks and newlines (malloc'd). */
static int read_secret(struct cfgload *l, const char *sect, const char *key, const char *name,
		       char **out)
{
	char *path = cfg_relative(l->path, name);
	if (!path)
		return -ENOMEM;
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t n = 0;
	int e = errno;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		e = ferror(f) ? EIO : 0;
		if (!e && !feof(f))
			e = EFBIG;
		fclose(f);
	}
	if (!f || e) {
		char what[512];
		snprintf(what, sizeof(what), "%s: %s", path, strerror(e));
		free(path);
		memset(buf, 0, sizeof(buf));
		return cfgfail(l, sect, key, what);
	}
	free(path);
	while (n > 0 && strchr(" \t\r\n", buf[n - 1]))
		n--;
	buf[n] = '\0';
	*out = strdup(buf);
	memset(buf, 0, sizeof(buf));
	return *out ? 0 : -ENOMEM;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* *dst = a copy of the scalar v (a file name relative to the config when file). */
static int take(struct cfgload *l, const char *sect, const char *key, yaml_node_t *v, bool file,
		char **dst)
{
	const char *s = scalar(v);
	if (!s)
		return cfgfail(l, sect, key, "must be a string");
	if (*dst)
		return cfgfail(l, sect, key, "is there twice");
	*dst = file ? cfg_relative(l->path, s) : strdup(s);
	return *dst ? 0 : -ENOMEM;
}

static int tls_key(struct cfgload *l, const char *k, yaml_node_t *v)
{
	struct fetch_cfg *c = l->cfg;
	const char *s = scalar(v);
	if (!strcmp(k, "ca_file"))
		return take(l, "tls_config", k, v, true, &c->ca_file);
	if (!strcmp(k, "cert_file"))
		return take(l, "tls_config", k, v, true, &c->cert_file);
	if (!strcmp(k, "key_file"))
		return take(l, "tls_config", k, v, true, &c->key_file);
	if (!strcmp(k, "server_name"))
		return take(l, "tls_config", k, v, false, &c->server_name);
	if (!strcmp(k, "insecure_skip_verify")) {
		if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
			c->insecure = !strcmp(s, "true");
			return 0;
		}
		return cfgfail(l, "tls_config", k, "must be true or false");
	}
	if (!strcmp(k, "min_version")) {
		static const struct {
			const char *name;
			long v;
		} vers[] = {{"TLS10", CURL_SSLVERSION_TLSv1_0},
			    {"TLS11", CURL_SSLVERSION_TLSv1_1},
			    {"TLS12", CURL_SSLVERSION_TLSv1_2},
			    {"TLS13", CURL_SSLVERSION_TLSv1_3}};
		for (size_t i = 0; s && i < sizeof(vers) / sizeof(vers[0]); i++)
			if (!strcmp(s, vers[i].name)) {
				c->min_version = vers[i].v;
				return 0;
			}
		return cfgfail(l, "tls_config", k, "must be TLS10, TLS11, TLS12 or TLS13");
	}
	return cfgfail(l, "tls_config", k, "unknown key");
}

/* name (the text) or name_file (a file holding it) into *dst; 1 when k is neither. */
static int secret(struct cfgload *l, const char *sect, const char *k, yaml_node_t *v,
		  const char *name, char **dst)
{
	size_t n = strlen(name);
	if (!strcmp(k, name))
		return take(l, sect, k, v, false, dst);
	if (strncmp(k, name, n) || strcmp(k + n, "_file"))
		return 1;
	const char *s = scalar(v);
	if (!s)
		return cfgfail(l, sect, k, "must be a file name");
	if (*dst) {
		char what[96];
		snprintf(what, sizeof(what), "%s and %s: one of them", name, k);
		return cfgfail(l, sect, k, what);
	}
	return read_secret(l, sect, k, s, dst);
}

static int basic_key(struct cfgload *l, const char *k, yaml_node_t *v)
{
	if (!strcmp(k, "username"))
		return take(l, "basic_auth", k, v, false, &l->cfg->user);
	int rc = secret(l, "basic_auth", k, v, "password", &l->cfg->password);
	return rc != 1 ? rc : cfgfail(l, "basic_auth", k, "unknown key");
}

static int authz_key(struct cfgload *l, const char *k, yaml_node_t *v)
{
	if (!strcmp(k, "type"))
		return take(l, "authorization", k, v, false, &l->cfg->auth_type);
	int rc = secret(l, "authorization", k, v, "credentials", &l->cfg->credentials);
	return rc != 1 ? rc : cfgfail(l, "authorization", k, "unknown key");
}

/* Each key: value of the mapping m through one section's reader. */
static int section(struct cfgload *l, const char *name, yaml_node_t *m,
		   int (*each)(struct cfgload *, const char *, yaml_node_t *))
{
	if (m->type == YAML_SCALAR_NODE && !*m->data.scalar.value)
		return 0; /* "tls_config:" with nothing under it */
	if (m->type != YAML_MAPPING_NODE)
		return cfgfail(l, name, NULL, "must be a mapping");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(yaml_document_get_node(l->doc, p->key));
		if (!k)
			return cfgfail(l, name, NULL, "keys must be strings");
		int rc = each(l, k, yaml_document_get_node(l->doc, p->value));
		if (rc)
			return rc;
	}
	return 0;
}

static int cfg_read(struct cfgload *l)
{
	yaml_node_t *root = yaml_document_get_root_node(l->doc);
	if (!root || (root->type == YAML_SCALAR_NODE && !*root->data.scalar.value))
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return cfgfail(l, NULL, NULL,
			       "must be a mapping of tls_config, basic_auth, "
			       "authorization");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(yaml_document_get_node(l->doc, p->key));
		yaml_node_t *v = yaml_document_get_node(l->doc, p->value);
		int rc;
		if (k && !strcmp(k, "tls_config"))
			rc = section(l, k, v, tls_key);
		else if (k && !strcmp(k, "basic_auth"))
			rc = (l->cfg->basic = true, section(l, k, v, basic_key));
		else if (k && !strcmp(k, "authorization"))
			rc = (l->cfg->authorization = true, section(l, k, v, authz_key));
		else
			rc = cfgfail(l, k, NULL,
				     "unknown key (tls_config, basic_auth, authorization)");
		if (rc)
			return rc;
	}
	struct fetch_cfg *c = l->cfg;
	if (c->basic && c->authorization)
		return cfgfail(l, NULL, NULL, "basic_auth and authorization: one of them");
	if (c->basic && !c->user)
		return cfgfail(l, "basic_auth", "username", "missing");
	if (c->authorization && !c->credentials)
		return cfgfail(l, "authorization", "credentials", "missing");
	if (c->auth_type && !strcasecmp(c->auth_type, "basic"))
		return cfgfail(l, "authorization", "type", "Basic: use basic_auth");
	if (!c->cert_file != !c->key_file)
		return cfgfail(l, "tls_config", c->cert_file ? "key_file" : "cert_file",
			       "missing (a client certificate needs both)");
	return 0;
}

int fetch_cfg_load(const char *path, struct fetch_cfg **cfg, char *err, size_t errlen)
{
	*cfg = NULL;
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a file", path);
		return -EISDIR;
	}
	/* A pipe (<(...)) is read; a FIFO nobody writes to reads empty, not waited on. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f = fd >= 0 && fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "rb") : NULL;
	if (!f && fd >= 0)
		close(fd);
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	yaml_parser_t p;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&p, f);
	int rc = 0;
	if (!yaml_parser_load(&p, &doc)) {
		snprintf(err, errlen, "%s:%zu: %s", path, p.problem_mark.line + 1,
			 p.problem ? p.problem : "not YAML");
		yaml_parser_delete(&p);
		fclose(f);
		return -EINVAL;
	}
	struct fetch_cfg *c = calloc(1, sizeof(*c));
	struct cfgload l = {path, &doc, c, err, errlen};
	rc = c ? cfg_read(&l) : -ENOMEM;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	fclose(f);
	if (rc) {
		fetch_cfg_free(c);
		return rc;
	}
	*cfg = c;
	return 0;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_init(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct {
		char *b;
		size_t len, cap;
	} *o = arg;
	size_t more = size * n;
	if (more > FETCH_MAX_BODY - o->len)
		return 0;
	if (o->len + more + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 16384;
		while (cap < o->len + more + 1)
			cap *= 2;
		char *b = realloc(o->b, cap);
		if (!b)
			return 0;
		o->b = b;
		o->cap = cap;
	}
	memcpy(o->b + o->len, data, more);
	o->len += more;
	o->b[o->len] = '\0';
	return more;
}

static int set_cfg(struct fetch *f, const struct fetch_cfg *c)
{
	CURL *h = f->c;
	int rc = CURLE_OK;
	if (c->ca_file)
		rc |= curl_easy_setopt(h, CURLOPT_CAINFO, c->ca_file);
	if (c->cert_file) {
		rc |= curl_easy_setopt(h, CURLOPT_SSLCERT, c->cert_file);
		rc |= curl_easy_setopt(h, CURLOPT_SSLKEY, c->key_file);
	}
	if (c->insecure) {
		rc |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		rc |= curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (c->min_version)
		rc |= curl_easy_setopt(h, CURLOPT_SSLVERSION, c->min_version);
	if (c->basic) {
		rc |= curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		rc |= curl_easy_setopt(h, CURLOPT_USERNAME, c->user);
		rc |= curl_easy_setopt(h, CURLOPT_PASSWORD, c->password ? c->password : "");
	}
	if (c->authorization) {
		const char *type = c->auth_type ? c->auth_type : "Bearer";
		size_t n = strlen(type) + strlen(c->credentials) + 32;
		char *line = malloc(n);
		if (!line)
			return -ENOMEM;
		snprintf(line, n, "Authorization: %s %s", type, c->credentials);
		struct curl_slist *l = curl_slist_append(NULL, line);
		memset(line, 0, n);
		free(line);
		if (!l)
			return -ENOMEM;
		f->headers = l;
		rc |= curl_easy_setopt(h, CURLOPT_HTTPHEADER, l);
	}
	if (c->server_name && !(f->server_name = strdup(c->server_name)))
		return -ENOMEM;
	return rc == CURLE_OK ? 0 : -EINVAL;
}

bool fetch_stop_pending(void)
{
	static const int stops[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	sigset_t p;
	if (sigpending(&p) != 0)
		return false;
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction sa;
		/* One ignored when pmutop started (nohup) is not the run loop's: never read,
		 * it would stay pending and stop every request. */
		if (sigismember(&p, stops[i]) == 1 && sigaction(stops[i], NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_IGN)
			return true;
	}
	return false;
}

static int on_progress(void *cls, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	(void)cls, (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return fetch_stop_pending(); /* non-zero: CURLE_ABORTED_BY_CALLBACK */
}

struct fetch *fetch_new(const struct fetch_cfg *cfg, char *err, size_t errlen)
{
	pthread_once(&curl_once, curl_init);
	if (curl_init_rc != CURLE_OK) {
		snprintf(err, errlen, "libcurl: %s", curl_easy_strerror(curl_init_rc));
		return NULL;
	}
	struct fetch *f = calloc(1, sizeof(*f));
	if (!f || !(f->c = curl_easy_init())) {
		snprintf(err, errlen, "libcurl: out of memory");
		free(f);
		return NULL;
	}
	CURL *h = f->c;
	int rc = (int)curl_easy_setopt(h, CURLOPT_ERRORBUFFER, f->ebuf);
	rc |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	rc |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	rc |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	rc |= curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	rc |= curl_easy_setopt(h, CURLOPT_USERAGENT, "pmutop");
	rc |= curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	rc |= curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	int e = rc == CURLE_OK ? 0 : -EINVAL;
	if (!e && cfg)
		e = set_cfg(f, cfg);
	if (e) {
		snprintf(err, errlen, "libcurl: %s",
			 e == -ENOMEM ? "out of memory" : "an option this libcurl does not take");
		fetch_free(f);
		return NULL;
	}
	return f;
}

/* url with its host replaced by f->server_name, and the connection sent to the URL's own
 * host and port (CURLOPT_CONNECT_TO): the name the certificate must carry and the SNI are
 * server_name's. 0, or -EINVAL (a URL libcurl cannot parse). */
static int server_name_url(struct fetch *f, const char *url, char **out,
			   struct curl_slist **connect_to)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL;
	int e = -EINVAL;
	if (!u)
		return -ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, url, 0) || curl_url_get(u, CURLUPART_HOST, &host, 0) ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) ||
	    curl_url_set(u, CURLUPART_HOST, f->server_name, 0) ||
	    curl_url_get(u, CURLUPART_URL, out, 0))
		goto out;
	char line[1024];
	snprintf(line, sizeof(line), "%s:%s:%s:%s", f->server_name, port, host, port);
	*connect_to = curl_slist_append(NULL, line);
	e = *connect_to ? 0 : -ENOMEM;
out:
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return e;
}

/* libcurl's result as -errno and what the line says first. */
static int curl_errno(CURLcode rc, const char **what)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
		*what = "connection refused or unreachable";
		return -ECONNREFUSED;
	case CURLE_OPERATION_TIMEDOUT:
		*what = "timed out";
		return -ETIMEDOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
		*what = "host name not resolved";
		return -EHOSTUNREACH;
	case CURLE_PEER_FAILED_VERIFICATION:
		*what = "server certificate not trusted (tls_config ca_file, server_name)";
		return -EACCES;
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CACERT_BADFILE:
		*what = "TLS certificate or key file not usable (tls_config)";
		return -EACCES;
	case CURLE_SSL_CONNECT_ERROR:
		*what = "TLS handshake failed";
		return -EPROTO;
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
		*what = "bad URL (http:// or https://)";
		return -EINVAL;
	case CURLE_WRITE_ERROR:
		*what = "answer too large";
		return -EFBIG;
	case CURLE_OUT_OF_MEMORY:
		*what = "out of memory";
		return -ENOMEM;
	case CURLE_ABORTED_BY_CALLBACK:
		*what = "interrupted (the run ends)";
		return -EINTR;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		*what = "the connection was closed (TLS: a client certificate the host asks for? "
			"tls_config cert_file)";
		return -ECONNRESET;
	default:
		*what = curl_easy_strerror(rc);
		return -EIO;
	}
}

int fetch_get(struct fetch *f, const char *url, long timeout_ms, char **body, size_t *len,
	      long *status, char *err, size_t errlen)
{
	struct {
		char *b;
		size_t len, cap;
	} o = {0};
	char *named = NULL;
	struct curl_slist *connect_to = NULL;
	*body = NULL;
	*len = 0;
	*status = 0;
	if (f->server_name) {
		int e = server_name_url(f, url, &named, &connect_to);
		if (e) {
			snprintf(err, errlen, "%s: bad URL (http:// or https://)", url);
			return e;
		}
	}
	CURL *h = f->c;
	f->ebuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, named ? named : url);
	curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &o);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
	CURLcode rc = curl_easy_perform(h);
	curl_easy_setopt(h, CURLOPT_CONNECT_TO, NULL);
	curl_slist_free_all(connect_to);
	curl_free(named);
	if (rc != CURLE_OK) {
		const char *what;
		int e = curl_errno(rc, &what);
		size_t n = strcspn(f->ebuf, "\r\n");
		f->ebuf[n] = '\0';
		snprintf(err, errlen, "%s: %s%s%s", url, what, f->ebuf[0] ? ": " : "", f->ebuf);
		free(o.b);
		return e;
	}
	if (!o.b && !(o.b = calloc(1, 1))) {
		snprintf(err, errlen, "%s: out of memory", url);
		return -ENOMEM;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
	*body = o.b;
	*len = o.len;
	return 0;
}

char *fetch_escape(const char *s)
{
	char *e = curl_easy_escape(NULL, s, 0);
	if (!e)
		return NULL;
	char *out = strdup(e);
	curl_free(e);
	return out;
}

void fetch_free(struct fetch *f)
{
	if (!f)
		return;
	curl_easy_cleanup(f->c);
	curl_slist_free_all(f->headers);
	free(f->server_name);
	free(f);
}
