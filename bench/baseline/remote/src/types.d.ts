/** The remote's API (the bench's demo API that takes bearer tokens), from webpack's DefinePlugin (remote/webpack.config.js). */
declare const API_URL: string;
