declare module 'remote/Profile' {
  const Profile: import('react').ComponentType;
  export default Profile;
}
