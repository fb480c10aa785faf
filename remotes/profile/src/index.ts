// The async boundary: shared modules (React, auth-lib, …) are negotiated before the app's code runs.
import('./bootstrap');
