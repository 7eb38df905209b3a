// Command videohost-emulator runs the video hosting service emulator as a process, for the
// demo and for users' own CI. Its first line on stdout is the base URL it serves; the API keys
// follow. It stops cleanly on SIGINT and SIGTERM. Run it with -h for every flag and the control
// API.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/serving"
)

func main() {
	ctx, stop := serving.UntilSignal(context.Background())
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	if v == "" {
		return errors.New("must not be empty")
	}
	*s = append(*s, v)
	return nil
}

// defaultListen is a fixed loopback port so that examples can name the address; pass
// -listen 127.0.0.1:0 for a free port and read it from the first line of stdout.
const defaultListen = "127.0.0.1:8080"

const usageHead = `videohost-emulator runs a local emulator of the video hosting service: webhooks, videos,
live streams, player themes, both authentication schemes, rate limits, paging, errors,
signed event deliveries, fault injection and a control API.

Usage: videohost-emulator [flags]

The first line on stdout is the base URL served (http://HOST:PORT, https:// with -tls); then
one line per API key ("api-key: KEY"; one key is generated when -api-key is not given), the
environment and the control API's address; with -tls, the certificate's file ("tls-cert: PATH",
for a client to trust) and the base64 SHA-256 of its public key ("tls-spki-sha256: HASH", for
Chromium's --ignore-certificate-errors-spki-list). SIGINT or SIGTERM stops the emulator cleanly (exit status 0).
Listening beyond loopback requires -control-token.

Flags:
`

// config is the parsed command line.
type config struct {
	listen string
	// tls serves HTTPS; tlsCert and tlsKey name the certificate and key files, or are empty
	// for a certificate generated at start.
	tls             bool
	tlsCert, tlsKey string
	opts            emulator.Options
}

// flagSet declares every flag into c; keys, otherKeys, limits and faults are copied into
// c.opts by parseFlags after parsing.
func flagSet(c *config, keys, otherKeys *stringList, limits *emulator.Limits, faults *emulator.Faults) *flag.FlagSet {
	fs := flag.NewFlagSet("videohost-emulator", flag.ContinueOnError)
	fs.StringVar(&c.listen, "listen", defaultListen, "address to listen on (HOST:PORT; port 0 picks a free port)")
	fs.BoolVar(&c.tls, "tls", false, "serve HTTPS with a certificate generated at start for localhost, 127.0.0.1 and ::1 (its file and SPKI hash are printed) unless -tls-cert and -tls-key are given; the browser paths /upload, /videos/{id}/source and /auth/refresh answer CORS either way")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "PEM certificate (chain) to serve HTTPS with, instead of a generated one; implies -tls")
	fs.StringVar(&c.tlsKey, "tls-key", "", "PEM private key of -tls-cert")
	fs.StringVar(&c.opts.Environment, "environment", emulator.EnvSandbox, "environment emulated: sandbox or production")
	fs.Var(keys, "api-key", "API key of this environment (repeatable; when none is given, one is generated and printed)")
	fs.Var(otherKeys, "other-environment-key", "API key of the other environment, answered 401 with a message saying so (repeatable)")
	fs.DurationVar(&c.opts.TokenTTL, "token-ttl", emulator.DefaultTokenTTL, "validity of access tokens (whole seconds)")
	fs.IntVar(&c.opts.MaxWebhooks, "max-webhooks", emulator.DefaultMaxWebhooks, "webhooks an account may hold")
	fs.BoolVar(&c.opts.SecretInResponses, "secret-in-responses", false, "also put signatureSecret into the answers of POST /webhooks and GET /webhooks/{id}")
	fs.StringVar(&c.opts.DocsURL, "docs-url", emulator.DefaultDocsURL, "base of the error documentation links (error type = <docs-url>/<slug>)")
	fs.IntVar(&limits.Uploads, "rate-limit-uploads", 0, "uploads (every multipart/form-data request) per window (0: the environment's, 40 sandbox, 100 production)")
	fs.IntVar(&limits.Writes, "rate-limit-writes", 0, "writes per window (0: the environment's, 40 sandbox, 200 production)")
	fs.IntVar(&limits.Reads, "rate-limit-reads", 0, "reads per window (0: the environment's, 100 sandbox, 500 production)")
	fs.DurationVar(&c.opts.RateWindow, "rate-window", emulator.DefaultRateWindow, "length of a rate-limit window (shorten it for tests)")
	fs.IntVar(&c.opts.SeedVideos, "seed-videos", 0, "deterministic videos created at start (vi0000000001, ...)")
	fs.IntVar(&c.opts.SeedLiveStreams, "seed-live-streams", 0, "deterministic live streams created at start (li0000000001, ...)")
	fs.IntVar(&c.opts.DeliveryRetries, "delivery-retries", emulator.DefaultDeliveryRetries, "retries of an event delivery after the first attempt (negative: none)")
	fs.DurationVar(&c.opts.DeliveryRetryDelay, "delivery-retry-delay", emulator.DefaultDeliveryRetryDelay, "delay between delivery attempts")
	fs.DurationVar(&c.opts.DeliveryTimeout, "delivery-timeout", emulator.DefaultDeliveryTimeout, "time a receiver has to answer one delivery attempt")
	fs.IntVar(&c.opts.DeliveryWorkers, "delivery-workers", emulator.DefaultDeliveryWorkers, "delivery attempts made at once (each webhook's deliveries go one at a time, in order)")
	fs.IntVar(&c.opts.DeliveryQueue, "delivery-queue", emulator.DefaultDeliveryQueue, "deliveries pending at most, retries included; beyond it new ones are dropped, counted in GET /_emulator/stats and logged")
	fs.DurationVar(&c.opts.IngestDelay, "ingest-delay", emulator.DefaultIngestDelay, "each step of a complete source's ingest (uploaded, ingesting, ingested)")
	fs.DurationVar(&c.opts.EncodingDelay, "encoding-delay", emulator.DefaultEncodingDelay, "the encoding of each quality of an uploaded source after the ingest (hls at 360p, 480p, 720p, 1080p, and mp4 at the same heights with mp4Support: 4 or 8 qualities; videos made through the control API arrive encoded in 10)")
	fs.StringVar(&c.opts.DetectedLanguage, "detected-language", emulator.DefaultDetectedLanguage, "language set, with languageOrigin auto, on an ingested video created without one")
	fs.StringVar(&c.opts.StatePath, "state", "", "JSON file that keeps webhooks, videos, live streams, player themes, upload tokens and watermarks across restarts, not the chunks of unfinished uploads (default: memory only); its directory must accept new files, a symbolic link is written through to the file it named at the start (never followed again once changed), the file, its links and their directories must be this user's and writable by no one else (so never directly in /tmp: use a directory of your own, mkdir -m 700), and a change that cannot be written is answered 500")
	fs.BoolVar(&c.opts.VideoRestore, "video-restore", false, "turn on the Video Restore feature: DELETE /videos/{id} discards the video, kept 90 days under /discarded/videos (restored by PATCH /discarded/videos/{id} {\"discarded\": false}); off, as for an account without it, a delete is final")
	fs.StringVar(&c.opts.ControlToken, "control-token", "", "bearer token required by the control API (/_emulator/); required when listening beyond loopback")
	fs.Var((*stringList)(&c.opts.ControlAllowHosts), "control-allow-host", "host name (or *) whose requests the control API answers beside the address it was reached on and localhost, 127.0.0.0/8 and [::1], which it always answers; others are refused against DNS rebinding (repeatable)")
	fs.Var((*stringList)(&c.opts.ControlAllowOrigins), "control-allow-origin", "Origin (scheme://host[:port], or *) of web pages allowed to call the control API beside the emulator's own; other pages' requests are refused (repeatable)")
	fs.Float64Var(&faults.ErrorRate, "fault-error-rate", 0, "share (0..1) of rate-limited API requests answered 500")
	fs.Float64Var(&faults.ReadErrorRate, "fault-read-error-rate", 0, "share (0..1) of rate-limited GET and HEAD API requests answered 500")
	fs.Float64Var(&faults.CommitThen500Rate, "fault-commit-then-500", 0, "share (0..1) of creates and updates (POST and PATCH) that store the change and answer 500")
	fs.DurationVar(&faults.Latency, "fault-latency", 0, "latency added before every API answer")
	fs.IntVar(&faults.Burst429, "fault-429-burst", 0, "answer the first N rate-limited API requests 429")
	fs.Float64Var(&faults.UploadCommitThen500Rate, "fault-upload-commit-then-500", 0, "share (0..1) of source chunks that are stored and answered 500")
	fs.IntVar(&faults.UploadCuts, "fault-upload-cuts", 0, "cut the connection of the first N source chunks part way through, storing nothing of them")
	fs.Int64Var(&faults.UploadCutAfterBytes, "fault-upload-cut-after-bytes", 0, "bytes of a cut chunk's file read before the cut (0: 1048576)")
	// parseFlags prints the usage itself: to stdout when asked for with -h, to stderr after an
	// error.
	fs.Usage = func() {}
	return fs
}

func printUsage(fs *flag.FlagSet, out io.Writer) {
	fs.SetOutput(out)
	_, _ = io.WriteString(out, usageHead)
	fs.PrintDefaults()
	_, _ = io.WriteString(out, "\n"+emulator.ControlIndex)
}

func parseFlags(args []string, stdout, stderr io.Writer) (config, error) {
	var c config
	var keys, otherKeys stringList
	var limits emulator.Limits
	var faults emulator.Faults
	fs := flagSet(&c, &keys, &otherKeys, &limits, &faults)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(fs, stdout)
		} else {
			printUsage(fs, stderr)
		}
		return config{}, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
		_, _ = fmt.Fprintln(stderr, err)
		printUsage(fs, stderr)
		return config{}, err
	}
	c.opts.APIKeys = keys
	c.opts.OtherEnvironmentKeys = otherKeys
	c.opts.Limits = limits
	c.opts.Faults = faults
	if c.tlsCert != "" || c.tlsKey != "" {
		c.tls = true
	}
	return c, nil
}

// isLoopback reports whether a listen address accepts loopback connections only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if !isLoopback(c.listen) && c.opts.ControlToken == "" {
		_, _ = fmt.Fprintf(stderr, "videohost-emulator: -listen %s is not a loopback address: set -control-token so that the control API is not open to the network\n", c.listen)
		return 2
	}
	var tlsOn *tlsSetup
	if c.tls {
		host, _, _ := net.SplitHostPort(c.listen)
		if tlsOn, err = setupTLS(c.tlsCert, c.tlsKey, host); err != nil {
			_, _ = fmt.Fprintf(stderr, "videohost-emulator: %v\n", err)
			return 2
		}
		if tlsOn.cleanup != nil {
			defer tlsOn.cleanup()
		}
	}
	emu, err := emulator.New(c.opts)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "videohost-emulator: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		_ = emu.Close()
		_, _ = fmt.Fprintf(stderr, "videohost-emulator: %v\n", err)
		return 1
	}
	base := "http://" + ln.Addr().String()
	if tlsOn != nil {
		base = "https://" + ln.Addr().String()
		ln = tls.NewListener(ln, tlsOn.config)
	}
	printStart(stdout, base, emu, tlsOn)

	code := 0
	if err := serving.Serve(ctx, ln, emu, 10*time.Second); err != nil {
		_, _ = fmt.Fprintf(stderr, "videohost-emulator: %v\n", err)
		code = 1
	}
	if err := emu.Close(); err != nil {
		_, _ = fmt.Fprintf(stderr, "videohost-emulator: %v\n", err)
		code = 1
	}
	return code
}

// printStart prints the lines that tell a script where and how to reach the emulator.
func printStart(stdout io.Writer, base string, emu *emulator.Emulator, tlsOn *tlsSetup) {
	_, _ = fmt.Fprintln(stdout, base)
	for _, k := range emu.APIKeys() {
		_, _ = fmt.Fprintf(stdout, "api-key: %s\n", k)
	}
	_, _ = fmt.Fprintf(stdout, "environment: %s\n", emu.Environment())
	_, _ = fmt.Fprintf(stdout, "control-api: %s/_emulator/\n", base)
	if tlsOn != nil {
		_, _ = fmt.Fprintf(stdout, "tls-cert: %s\n", tlsOn.certPath)
		_, _ = fmt.Fprintf(stdout, "tls-spki-sha256: %s\n", tlsOn.spki)
	}
}
