import { createRoot } from 'react-dom/client';
import Profile from './Profile';

createRoot(document.body.appendChild(document.createElement('div'))).render(<Profile />);
