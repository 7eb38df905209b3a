package provider

import (
	"strings"
	"testing"
)

func TestCheckColour(t *testing.T) {
	for _, ok := range []string{
		"rgba(255, 255, 255, 1)", "rgba(88, 131, 255, .95)", "rgba(88, 131, 255, 0.95)", "rgba(0,0,0,0)",
		"rgba(0, 0, 0, .7)", "rgba(1, 2, 3, 1.0)", "rgba(10, 20, 30, 0.125)",
	} {
		if why := checkColour(ok); why != "" {
			t.Errorf("checkColour(%q) = %q, want accepted", ok, why)
		}
	}
	for bad, want := range map[string]string{
		"#ffffff":                 "form rgba",
		"rgb(1, 2, 3)":            "form rgba",
		"rgba(1, 2, 3)":           "3 components",
		"rgba(256, 0, 0, 1)":      "red",
		"rgba(0, -1, 0, 1)":       "green",
		"rgba(0, 0, x, 1)":        "blue",
		"rgba(0, 0, +1, 1)":       "blue",
		"rgba(0, 0, 0, 1.5)":      "alpha",
		"rgba(0, 0, 0, 2)":        "alpha",
		"rgba(0, 0, 0, 50%)":      "alpha",
		"rgba(0, 0, 0, 1e-1)":     "alpha",
		"rgba(0, 0, 0, .)":        "alpha",
		"RGBA(0, 0, 0, 1)":        "form rgba",
		"rgba(0, 0, 0, 1) ":       "form rgba",
		"rgba(0, 0, 0, 1, 1)":     "5 components",
		"rgba(0.5, 0, 0, 1)":      "red",
		"rgba(255, 255, 255, -0)": "alpha",
	} {
		why := checkColour(bad)
		if why == "" || !strings.Contains(why, want) {
			t.Errorf("checkColour(%q) = %q, want a refusal naming %q", bad, why, want)
		}
	}
}

func TestCheckRTMPURL(t *testing.T) {
	for _, ok := range []string{"rtmp://a.rtmp.youtube.com/live2", "rtmps://live-api-s.facebook.com:443/rtmp/", "rtmp://10.0.0.1/app/sub"} {
		if why := checkRTMPURL(ok); why != "" {
			t.Errorf("checkRTMPURL(%q) = %q, want accepted", ok, why)
		}
	}
	for bad, want := range map[string]string{
		"https://a.example/live":     "scheme",
		"a.example/live":             "scheme",
		"rtmp://a.example":           "app name",
		"rtmp://a.example/":          "app name",
		"rtmp:///live":               "no host",
		"rtmp:a.example/live":        "no host",
		"rtmp://key:pw@a.example/ap": "user information",
	} {
		why := checkRTMPURL(bad)
		if why == "" || !strings.Contains(why, want) {
			t.Errorf("checkRTMPURL(%q) = %q, want a refusal naming %q", bad, why, want)
		}
		if strings.Contains(why, "pw") {
			t.Errorf("checkRTMPURL(%q) repeats the password: %q", bad, why)
		}
	}
}
