declare module 'remote/Profile' {
  const Profile: import('react').ComponentType;
  export default Profile;
}

/** The identity provider's base URL, from webpack's DefinePlugin (host/webpack.config.js). */
declare const IDP_URL: string;
